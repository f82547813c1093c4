import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import type { Type } from 'protobufjs';
import { otlpGrpcPaths, otlpMessages } from './otlp-proto-definitions';
import {
  logRecordsOf,
  metricsOf,
  spansOf,
  type ReceivedLogRecord,
  type ReceivedMetric,
  type ReceivedSpan,
} from './otlp-records';

export type OtlpSignal = 'traces' | 'metrics' | 'logs';

/** One export request as it arrived: how it was sent and the headers (or gRPC metadata) it carried. */
export interface ReceivedExport {
  readonly signal: OtlpSignal;
  readonly transport: 'http/protobuf' | 'http/json' | 'grpc';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A local OTLP collector for tests: OTLP/HTTP (`POST /v1/traces|metrics|logs`, protobuf or JSON, gzip or not)
 * and, when asked, OTLP/gRPC, decoding every request with the OTLP protobuf definitions into spans, metrics and
 * log records a test asserts on.
 */
export interface OtlpReceiver {
  /** OTLP/HTTP base URL (`http://127.0.0.1:<port>` plus the prefix): the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  /** OTLP/gRPC URL (`http://127.0.0.1:<port>`), when started with `grpc: true`. */
  readonly grpcUrl: string | undefined;
  readonly exports: ReceivedExport[];
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetric[];
  readonly logRecords: ReceivedLogRecord[];
  /** Answers every later HTTP export with this status (500 makes exporters fail); null restores 200. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

const httpPaths: Record<string, OtlpSignal> = {
  '/v1/traces': 'traces',
  '/v1/metrics': 'metrics',
  '/v1/logs': 'logs',
};
const toObjectOptions = { longs: Number, enums: Number, defaults: false } as const;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : (value ?? ''),
    ]),
  );
}

export async function startOtlpReceiver(
  options: {
    readonly grpc?: boolean;
    /** A platform's path before `/v1/<signal>` (`/otlp` for Grafana Cloud, `/api/v2/otlp` for Dynatrace). */
    readonly prefix?: string;
  } = {},
): Promise<OtlpReceiver> {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const exports: ReceivedExport[] = [];
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const logRecords: ReceivedLogRecord[] = [];
  let failure: number | null = null;

  const accept = (signal: OtlpSignal, decoded: Record<string, unknown>) => {
    if (signal === 'traces') spans.push(...spansOf(decoded));
    else if (signal === 'metrics') metrics.push(...metricsOf(decoded));
    else logRecords.push(...logRecordsOf(decoded));
  };
  const decodeProtobuf = (signal: OtlpSignal, bytes: Uint8Array) => {
    const type: Type = otlpMessages[signal];
    return type.toObject(type.decode(bytes), toObjectOptions);
  };

  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    const signal = path.startsWith(`${prefix}/`) ? httpPaths[path.slice(prefix.length)] : undefined;
    if (request.method !== 'POST' || !signal) {
      response.writeHead(404).end();
      return;
    }
    void readBody(request)
      .then((raw) => {
        const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        const json = (request.headers['content-type'] ?? '').startsWith('application/json');
        exports.push({
          signal,
          transport: json ? 'http/json' : 'http/protobuf',
          path: request.url ?? '',
          headers: flatHeaders(request.headers),
        });
        if (failure !== null) {
          response.writeHead(failure, { 'content-type': 'text/plain' }).end('refused by the test receiver');
          return;
        }
        accept(signal, json ? JSON.parse(body.toString('utf8')) : decodeProtobuf(signal, body));
        if (json) response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        else {
          response
            .writeHead(200, { 'content-type': 'application/x-protobuf' })
            .end(Buffer.from(otlpMessages.response.encode({}).finish()));
        }
      })
      .catch((error: Error) => response.writeHead(400).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;

  let grpcServer: grpc.Server | undefined;
  let grpcUrl: string | undefined;
  if (options.grpc) {
    grpcServer = new grpc.Server();
    for (const signal of ['traces', 'metrics', 'logs'] as const) {
      const type = otlpMessages[signal];
      grpcServer.addService(
        {
          Export: {
            path: otlpGrpcPaths[signal],
            requestStream: false,
            responseStream: false,
            requestSerialize: (value: object) => Buffer.from(type.encode(value).finish()),
            requestDeserialize: (bytes: Buffer) => type.toObject(type.decode(bytes), toObjectOptions),
            responseSerialize: () => Buffer.from(otlpMessages.response.encode({}).finish()),
            responseDeserialize: () => ({}),
          },
        },
        {
          Export: (
            call: grpc.ServerUnaryCall<Record<string, unknown>, object>,
            callback: grpc.sendUnaryData<object>,
          ) => {
            exports.push({
              signal,
              transport: 'grpc',
              path: otlpGrpcPaths[signal],
              headers: Object.fromEntries(
                Object.entries(call.metadata.getMap()).map(([name, value]) => [name, String(value)]),
              ),
            });
            accept(signal, call.request);
            callback(null, {});
          },
        },
      );
    }
    const port = await new Promise<number>((resolve, reject) =>
      grpcServer!.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    grpcUrl = `http://127.0.0.1:${port}`;
  }

  return {
    url,
    grpcUrl,
    exports,
    spans,
    metrics,
    logRecords,
    failWith: (status) => {
      failure = status;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (grpcServer) {
        const stopping = grpcServer;
        await new Promise<void>((resolve) => stopping.tryShutdown(() => resolve()));
        stopping.forceShutdown();
      }
    },
  };
}
