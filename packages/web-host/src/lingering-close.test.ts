import http from 'node:http';
import net from 'node:net';
import { defineOperation, type EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing';
import { z } from 'zod';
import { createWebHost } from './index';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

/** What a client streaming a chunked upload saw. */
interface UploadOutcome {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  /** The first error of the request or its socket (EPIPE, ECONNRESET), if any. */
  error?: string;
  /** Bytes handed to the socket. */
  sent: number;
}

/**
 * Streams a chunked body of 64 KiB chunks (at most `totalBytes`) with a raw node `http` client, the way an
 * upload does: each write waits for the previous one to drain, and it stops writing once an answer arrives
 * (node's client then ends the connection itself after a `Connection: close` answer). Settles when the
 * connection has closed.
 */
function upload(port: number, path: string, totalBytes: number): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { sent: 0 };
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Promise<UploadOutcome>((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      outcome.status = response.statusCode;
      outcome.headers = response.headers;
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => (outcome.body = body));
    });
    request.on('error', (error: NodeJS.ErrnoException) => (outcome.error ??= error.code ?? error.message));
    request.on('close', () => resolve(outcome));
    const pump = (): void => {
      while (!answered && outcome.sent < totalBytes) {
        outcome.sent += chunk.length;
        if (!request.write(chunk)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered) request.end();
    };
    pump();
  });
}

/** A raw socket sending a chunked body that never ends, with what it received and whether the connection ended. */
function endlessUpload(
  port: number,
  path: string,
): { ended: () => boolean; answer: () => string; closed: Promise<void> } {
  let ended = false;
  let answer = '';
  // Half-open: the server's FIN after its answer does not end the client's side, which goes on sending.
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')]);
  const pump = (): void => {
    while (!ended && socket.write(chunk));
    if (!ended) socket.once('drain', pump);
  };
  socket.on('connect', () => {
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`);
    socket.write('Transfer-Encoding: chunked\r\n\r\n');
    pump();
  });
  socket.on('data', (bytes: Buffer) => (answer += bytes.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => ((ended = true), resolve())));
  return { ended: () => ended, answer: () => answer, closed };
}

/** A JSON operation with a limit of its own (its route parses its body itself). */
function jsonOperation(builder: EngineBuilder) {
  builder.addOperation(
    defineOperation({
      id: 'uploads.json',
      method: 'POST',
      path: '/engine/uploads/json',
      summary: 'Echoes the length of a JSON body',
      maxBodyBytes: 2048,
      authorization: { mode: 'anonymous' },
      body: z.object({ text: z.string() }),
      result: z.object({ length: z.number().int() }),
      handler: async ({ body }) => ({ length: body.text.length }),
    }),
  );
}

const routes = [
  ['a route without its own parser (Engine:Web:MaxRequestBodyBytes)', '/engine/status'],
  ['a JSON operation with its own limit', '/engine/uploads/json'],
  ['an unknown path', '/engine/nothing-here'],
];

describe('an over-limit chunked upload gets its 413 before the connection closes', () => {
  it.each(routes)(
    '%s: 413 problem details with Connection: close reach a client still sending, never a reset',
    async (_name, path) => {
      const { base } = await startTestHost({
        configuration: { Engine: { Web: { MaxRequestBodyBytes: 4096 } } },
        setup: jsonOperation,
      });
      const outcome = await upload(Number(new URL(base).port), path, 50 * 1024 * 1024);
      expect(outcome.error).toBeUndefined();
      expect(outcome.status).toBe(413);
      expect(outcome.headers?.['content-type']).toMatch(/^application\/problem\+json/);
      expect(outcome.headers?.connection).toBe('close');
      expect(JSON.parse(outcome.body ?? '{}')).toMatchObject({ status: 413, code: 'REQUEST_BODY_TOO_LARGE' });
      expect(outcome.sent).toBeLessThan(50 * 1024 * 1024);
    },
  );

  it('closes the connection after Engine:Web:LingerTimeout when the client never stops sending', async () => {
    const { base } = await startTestHost({
      configuration: { Engine: { Web: { MaxRequestBodyBytes: 4096, LingerTimeout: '200ms' } } },
    });
    const upload = endlessUpload(Number(new URL(base).port), '/engine/status');
    expect(await pollUntil(async () => upload.ended(), Boolean, { timeoutMs: 20_000 })).toBe(true);
    await upload.closed;
    expect(upload.answer()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('refuses a misspelled LingerTimeout naming the key and the closest one', async () => {
    const builder = createEngineBuilder({
      configuration: { Engine: { Web: { LingerTimout: '1s' } } },
      environment: {},
      logger: createMemoryLogger(),
    });
    const host = createWebHost(builder, {
      port: 0,
      handleSignals: false,
      exitProcess: true,
      exit: () => undefined,
      reportStartupError: () => undefined,
    });
    await expect(host.listen()).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: expect.stringContaining(
        '`Engine:Web:LingerTimout` is not a known key; did you mean `LingerTimeout`?',
      ),
    });
    await host.close();
  });
});
