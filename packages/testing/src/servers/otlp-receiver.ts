import { gunzipSync, inflateSync } from 'node:zlib';
import { startHttpFakeServer, type RecordedHttpRequest } from '../http-fake-server';
import {
  decodeOtlpJson,
  decodeOtlpProtobuf,
  type OtlpLogRecord,
  type OtlpMetric,
  type OtlpSignal,
  type OtlpSpan,
} from './otlp-decoding';

/** One OTLP/HTTP export request as the receiver decoded it. */
export interface OtlpExportRequest {
  readonly signal: OtlpSignal;
  /** The full request path (`/api/v2/otlp/v1/traces` for a platform with a prefix). */
  readonly path: string;
  readonly encoding: 'protobuf' | 'json';
  /** Header names lower-cased. */
  readonly headers: RecordedHttpRequest['headers'];
  readonly spans: OtlpSpan[];
  readonly metrics: OtlpMetric[];
  readonly logs: OtlpLogRecord[];
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>` plus the prefix it was started with: the exporters' base endpoint. */
  readonly endpoint: string;
  readonly port: number;
  /** Every export request decoded so far, oldest first. */
  readonly exports: OtlpExportRequest[];
  /** Requests that were not an OTLP export (wrong path, content type or body), answered 404, 415 or 400. */
  readonly rejected: RecordedHttpRequest[];
  spans(): OtlpSpan[];
  metrics(): OtlpMetric[];
  logs(): OtlpLogRecord[];
  /** From now on answer every export with `status` (a 5xx or 401 makes exporters fail); `undefined` restores 200. */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

const signalPattern = /\/v1\/(traces|metrics|logs)$/;

function decompress(request: RecordedHttpRequest): Buffer {
  const encoding = String(request.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip') return gunzipSync(request.bytes);
  if (encoding === 'deflate') return inflateSync(request.bytes);
  return request.bytes;
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1 that decodes what exporters really send: `POST <prefix>/v1/traces`,
 * `/v1/metrics` and `/v1/logs` in binary protobuf (`application/x-protobuf`) or JSON (`application/json`),
 * gzip or not, and answers as a collector does (an empty export response in the request's encoding).
 * `prefix` is the platform's path before `/v1/...` (`/otlp` for Grafana Cloud, `/api/v2/otlp` for Dynatrace).
 */
export async function startOtlpReceiver(options: { prefix?: string } = {}): Promise<OtlpReceiver> {
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const exports: OtlpExportRequest[] = [];
  const rejected: RecordedHttpRequest[] = [];
  let failure: number | undefined;
  const server = await startHttpFakeServer((request) => {
    const match = signalPattern.exec(request.path);
    if (request.method !== 'POST' || !match || request.path !== `${prefix}/v1/${match[1]}`) {
      rejected.push(request);
      return { status: 404, body: 'not an OTLP export path' };
    }
    const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
    const encoding = contentType.startsWith('application/x-protobuf')
      ? 'protobuf'
      : contentType.startsWith('application/json')
        ? 'json'
        : undefined;
    if (!encoding) {
      rejected.push(request);
      return { status: 415, body: 'OTLP/HTTP takes application/x-protobuf or application/json' };
    }
    const signal = match[1] as OtlpSignal;
    let decoded: ReturnType<typeof decodeOtlpJson>;
    try {
      const body = decompress(request);
      decoded = encoding === 'protobuf' ? decodeOtlpProtobuf(signal, body) : decodeOtlpJson(body.toString('utf8'));
    } catch (error) {
      rejected.push(request);
      return { status: 400, body: `undecodable OTLP ${encoding}: ${(error as Error).message}` };
    }
    exports.push({ signal, path: request.path, encoding, headers: request.headers, ...decoded });
    if (failure !== undefined) return { status: failure, body: 'failure asked by the test' };
    return encoding === 'protobuf'
      ? { status: 200, headers: { 'content-type': 'application/x-protobuf' }, body: '' }
      : { status: 200, body: {} };
  });
  return {
    endpoint: `${server.url}${prefix}`,
    port: server.port,
    exports,
    rejected,
    spans: () => exports.flatMap((entry) => entry.spans),
    metrics: () => exports.flatMap((entry) => entry.metrics),
    logs: () => exports.flatMap((entry) => entry.logs),
    failWith(status) {
      failure = status;
    },
    close: () => server.close(),
  };
}
