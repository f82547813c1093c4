import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP endpoint that reads and drops every export and answers 200 with an empty (valid) protobuf
 * response: the benchmark measures what telemetry costs the host, not a collector decoding it. Counts what
 * arrived, to show the telemetry side really exported.
 */
export async function startDiscardCollector() {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    request.on('end', () => {
      received.requests++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
