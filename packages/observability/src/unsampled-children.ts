import {
  context,
  INVALID_TRACEID,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
} from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';

/**
 * The tracer provider a host registers when its sampler is parent based (every default): a span whose parent
 * is valid and not sampled is answered here, without the SDK's tracer, with what that tracer would answer: a
 * non-recording span in the parent's trace (its trace id and trace state), with a new span id and flags `00`.
 * A parent-based sampler decides exactly that for such a parent, local or remote, so nothing changes but the
 * cost: the SDK gets there after validating both ids, sanitizing the attributes, building the links and asking
 * the sampler, on every child span of every unrecorded request (most requests, under rate-limited sampling).
 * Every other span (a root, a child of a sampled parent, any span while tracing is suppressed) goes to the SDK.
 */
export class ParentFollowingTracerProvider implements TracerProvider {
  private readonly tracers = new Map<string, Tracer>();

  constructor(
    private readonly sdk: TracerProvider,
    private readonly ids: IdGenerator,
  ) {}

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const key = `${name}@${version ?? ''}:${options?.schemaUrl ?? ''}`;
    let tracer = this.tracers.get(key);
    if (!tracer) {
      tracer = new ParentFollowingTracer(this.sdk.getTracer(name, version, options), this.ids);
      this.tracers.set(key, tracer);
    }
    return tracer;
  }
}

class ParentFollowingTracer implements Tracer {
  constructor(
    private readonly sdk: Tracer,
    private readonly ids: IdGenerator,
  ) {}

  startSpan(name: string, options?: SpanOptions, parentContext: Context = context.active()): Span {
    if (options?.root !== true) {
      const parent = trace.getSpanContext(parentContext);
      if (
        parent !== undefined &&
        (parent.traceFlags & TraceFlags.SAMPLED) === 0 &&
        parent.traceId !== INVALID_TRACEID &&
        !isTracingSuppressed(parentContext)
      ) {
        return trace.wrapSpanContext({
          traceId: parent.traceId,
          spanId: this.ids.generateSpanId(),
          traceFlags: TraceFlags.NONE,
          ...(parent.traceState !== undefined ? { traceState: parent.traceState } : {}),
        });
      }
    }
    return this.sdk.startSpan(name, options, parentContext);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    parentContext: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<R>(
    name: string,
    ...rest:
      [(span: Span) => R] | [SpanOptions, (span: Span) => R] | [SpanOptions, Context, (span: Span) => R]
  ): R {
    const [options, parentContext, fn] =
      rest.length === 1
        ? [undefined, context.active(), rest[0]]
        : rest.length === 2
          ? [rest[0], context.active(), rest[1]]
          : rest;
    const span = this.startSpan(name, options, parentContext);
    return context.with(trace.setSpan(parentContext, span), fn, undefined, span);
  }
}
