import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** An error the problem handler maps to 415 UNSUPPORTED_MEDIA_TYPE (body-parser's own type for charsets). */
export function unsupported(message: string): Error {
  return Object.assign(new Error(message), { status: 415, type: 'charset.unsupported' });
}

function isJsonType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function hasBytes(request: IncomingMessage): boolean {
  const length = Number(request.headers['content-length']);
  return request.headers['transfer-encoding'] !== undefined || (Number.isFinite(length) && length > 0);
}

/**
 * True when a request carries a body that is not JSON: a content type other than JSON (`text/plain`, forms:
 * what a browser sends cross-site without a preflight), or bytes with no content type. A request with neither
 * a body nor a content type is not.
 */
export function hasNonJsonBody(request: IncomingMessage): boolean {
  const contentType = request.headers['content-type'];
  return contentType === undefined ? hasBytes(request) : !isJsonType(contentType);
}

/**
 * A JSON body parser: at most `limit` bytes (413 beyond), UTF-8 only: 415 for a charset other than UTF-8
 * (`utf-7`, `utf-16`...) and for a body that is not UTF-8 although it claims to be (a byte-order mark or NUL
 * bytes: UTF-16 or UTF-32). With `requireJson` (a route that takes a JSON body), a non-JSON body
 * (`hasNonJsonBody`) is 415 too; without it (the host-wide parser, before routing) it is left unparsed.
 */
export function utf8JsonBody(limit: number, requireJson: boolean): RequestHandler {
  const parse = express.json({
    limit,
    verify: (_request, _response, buffer, encoding) => {
      if (!/^utf-?8$/i.test(encoding)) throw unsupported(`charset ${encoding} is not UTF-8`);
      const bom =
        buffer.length >= 2 &&
        ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff));
      if (bom || buffer.includes(0)) throw unsupported('the body is not UTF-8');
    },
  });
  return (request: Request, response: Response, next: NextFunction) => {
    if (requireJson && hasNonJsonBody(request)) {
      next(unsupported('the body is not JSON'));
      return;
    }
    parse(request, response, next);
  };
}
