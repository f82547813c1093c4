import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Histogram } from '@opentelemetry/api';
import { meterBound, tracerBound } from '@corekit/engine-core';

/** Instrumentation scope of the web host's HTTP server telemetry. */
export const httpServerScope = '@corekit/web-host';

/** Bucket boundaries (seconds) the HTTP semantic conventions advise for `http.server.request.duration`. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const knownMethods = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

const serverTracer = tracerBound(httpServerScope);

const requestDuration = meterBound(httpServerScope, (meter): Histogram =>
  meter.createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests',
    unit: 's',
    advice: { explicitBucketBoundaries: durationBuckets },
  }),
);

/**
 * Serves a request inside an HTTP server span and records `http.server.request.duration`, both named and
 * attributed per the OpenTelemetry HTTP semantic conventions (`http.request.method`, `http.route`,
 * `http.response.status_code`, `url.scheme`; the span also `url.path`). The incoming `traceparent` is
 * continued; the handler (operations, logs) runs in the span's context. `routeOf` gives the matched route
 * template (`/engine/cdc-captures/:cdcCaptureId`), undefined for a request no route matched. `traced` false
 * (the health routes, which orchestrators poll constantly and which answer a cached report) records the
 * histogram but starts no span. With no OpenTelemetry SDK registered, the span and the histogram are no-ops.
 */
export function serveWithTelemetry(
  request: IncomingMessage,
  response: ServerResponse,
  routes: {
    readonly routeOf: (method: string, path: string) => string | undefined;
    readonly traced: (path: string) => boolean;
  },
  serve: () => void,
): void {
  const startedAt = performance.now();
  const method = knownMethods.has(request.method ?? '') ? request.method! : '_OTHER';
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const finish = () => {
    const route = routes.routeOf(method, path);
    const attributes: Record<string, string | number> = {
      'http.request.method': method,
      'http.response.status_code': response.statusCode,
      'url.scheme': 'http',
    };
    if (route) attributes['http.route'] = route;
    requestDuration().record((performance.now() - startedAt) / 1000, attributes);
    return route;
  };
  if (!routes.traced(path)) {
    response.once('close', finish);
    serve();
    return;
  }
  const parent = propagation.extract(context.active(), request.headers);
  const span = serverTracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'url.path': path, 'url.scheme': 'http' },
    },
    parent,
  );
  response.once('close', () => {
    const route = finish();
    if (!span.isRecording()) return;
    // The method, scheme and path are set at the start; the end adds what only it knows.
    if (route) {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('http.response.status_code', response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(parent, span), serve);
}
