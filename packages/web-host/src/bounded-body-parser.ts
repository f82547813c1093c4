import { Readable } from 'node:stream';
import { readBoundedBytes } from '@corekit/transport-kit';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { lingerBeforeClose } from './lingering-close';

/** The error body-parser raises for an oversized body, so `problemFromError` answers 413 as it always did. */
function tooLarge(limit: number): Error {
  return Object.assign(new Error('request entity too large'), {
    type: 'entity.too.large',
    status: 413,
    limit,
  });
}

/** type-is' rule: a request has a body when it declares a transfer encoding or a Content-Length. */
function hasBody(request: Request): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined ||
    !Number.isNaN(Number.parseInt(request.headers['content-length'] ?? '', 10))
  );
}

/**
 * A body framed by a Content-Length within `limit` (no transfer encoding): the HTTP parser delivers exactly
 * the declared bytes, so the body parser can read the request itself with nothing left to bound.
 */
function declaredWithin(request: Request, limit: number): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return false;
  const declared = Number(request.headers['content-length']);
  return Number.isFinite(declared) && declared <= limit;
}

/**
 * Bounds a body parser (express.json, express.raw) by the bytes on the wire before it reads anything: a
 * declared `Content-Length` over `limit` is answered 413 before a byte of the body is read, a chunked body
 * the moment it passes `limit` (body-parser alone reads an oversized body off to its end before answering).
 * Both 413s carry `Connection: close`, so the client's upload stops there, and the close lingers for at most
 * `lingerMs` (`lingerBeforeClose`): the rest of the upload is read off and dropped until the client ends it,
 * so a client still writing receives the 413 instead of a reset connection. A body within the limit is handed
 * to `parser` unchanged (content type, charset, encodings, strict JSON and its errors stay the parser's):
 * one declared within the limit goes to the parser as it is (it reads what the HTTP parser frames, never more
 * than the declared length), a chunked one is read here first and replayed to it.
 */
export function boundedBodyParser(parser: RequestHandler, limit: number, lingerMs: number): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (!hasBody(request) || declaredWithin(request, limit)) {
      void parser(request, response, next);
      return;
    }
    readBoundedBytes(request, limit).then(
      (body) => {
        if (body === 'too-large') {
          response.setHeader('Connection', 'close');
          lingerBeforeClose(request, lingerMs);
          next(tooLarge(limit));
          return;
        }
        // The parser reads the bytes already received from a stream that looks like the request to it.
        const replay = Object.assign(Readable.from(body.length > 0 ? [body] : []), {
          headers: request.headers,
          method: request.method,
          url: request.url,
          body: undefined as unknown,
        });
        void parser(replay as unknown as Request, response, (error?: unknown) => {
          request.body = replay.body;
          next(error);
        });
      },
      () =>
        // The client went away mid-body (as body-parser answers it: a 400 nobody reads, not a server error).
        next(Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400 })),
    );
  };
}
