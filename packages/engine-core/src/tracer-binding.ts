import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';

/**
 * The tracer of `name` on the tracer provider the API answers now, taken again only when that provider changes
 * (an SDK unregistered and another registered). The API's proxy provider stays the same object while an SDK
 * registers behind it and its tracer delegates once the SDK is there; a per-request `trace.getTracer(name)`
 * would allocate a proxy tracer and look the SDK's tracer up again on every call.
 */
export function tracerBound(name: string): () => Tracer {
  let provider: TracerProvider | undefined;
  let tracer: Tracer | undefined;
  return () => {
    const current = trace.getTracerProvider();
    if (current !== provider || tracer === undefined) {
      provider = current;
      tracer = current.getTracer(name);
    }
    return tracer;
  };
}
