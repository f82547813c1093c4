import net from 'node:net';

/** The answer to a request whose body was only partly sent. */
export interface PartialBodyAnswer {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface PartialBodyRequestOptions {
  readonly port: number;
  readonly host?: string;
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Body bytes actually sent (the rest is never written; the socket stays open until the answer). */
  readonly send: Buffer;
  /**
   * `Content-Length` declared for the body (larger than `send`: the client pretends more follows), or
   * `chunked` to send `send` as one chunk of a chunked body without the terminating chunk.
   */
  readonly declare: number | 'chunked';
}

/**
 * Writes a request head and part of its body on a raw socket, keeps the socket open without sending the rest,
 * and resolves with the server's answer once its status line, headers and `Content-Length` body (or the
 * connection's end) arrived. A server that waits for the whole body never answers: the caller's test
 * times out, which is the failure it is meant to show. The socket is destroyed once answered.
 */
export function partialBodyRequest(options: PartialBodyRequestOptions): Promise<PartialBodyAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(options.port, options.host ?? '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (answer: PartialBodyAnswer | Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    const parse = (ended: boolean) => {
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) {
        if (ended) finish(new Error('the connection ended before an HTTP answer arrived'));
        return;
      }
      const [statusLine, ...lines] = received.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = received.subarray(split + 4);
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (length !== undefined ? body.length < length : !ended) return;
      finish({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: body.subarray(0, length ?? body.length).toString('utf8'),
      });
    };
    socket.on('connect', () => {
      const head = [
        `${options.method ?? 'POST'} ${options.path} HTTP/1.1`,
        `Host: ${options.host ?? '127.0.0.1'}:${options.port}`,
        ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
        options.declare === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${options.declare}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      if (options.declare === 'chunked') {
        socket.write(`${options.send.length.toString(16)}\r\n`);
        socket.write(options.send);
        socket.write('\r\n');
      } else socket.write(options.send);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      parse(false);
    });
    socket.on('end', () => parse(true));
    socket.on('error', (error) => {
      if (received.length > 0) parse(true);
      finish(error);
    });
  });
}
