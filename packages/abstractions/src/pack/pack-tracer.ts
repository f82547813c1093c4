/** How packs trace: spans on the engine's OpenTelemetry tracer, W3C trace context carried by messages. */

import type { PackMeter } from './runtime-writers';

/** The OpenTelemetry span kinds, by name. */
export type PackSpanKind = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

/** A span attribute value. Never a secret, never a personal identifier. */
export type SpanAttributeValue = string | number | boolean;

/**
 * W3C trace-context fields (`traceparent`, and `tracestate` when there is one) as a message carries them in
 * its headers. Other fields of a header map are ignored when it is read as a carrier.
 */
export type TraceCarrier = Readonly<Record<string, string>>;

export interface PackSpanOptions {
  /** Default `internal`. */
  readonly kind?: PackSpanKind;
  readonly attributes?: Readonly<Record<string, SpanAttributeValue>>;
  /**
   * The trace to continue: the headers a message arrived with (only `traceparent` and `tracestate` are
   * read; values that are not strings are ignored). Without it, or without a valid `traceparent`, the span
   * is a child of the active span.
   */
  readonly parent?: Readonly<Record<string, unknown>>;
  /** Traces this span relates to without being their child: the create spans of a batch's messages. */
  readonly links?: readonly TraceCarrier[];
}

export interface PackSpan {
  setAttribute(name: string, value: SpanAttributeValue): void;
  /** Marks the span failed: status ERROR and `error.type` (the error's `code`, else its class name). */
  fail(error: unknown): void;
  /** This span's W3C trace-context fields, for a message's headers; empty when no SDK records it. */
  carrier(): Record<string, string>;
  end(): void;
}

/** The engine's tracer, for packs (`builder.tracer`): a no-op until the host registers an OpenTelemetry SDK. */
export interface PackTracer {
  /** Starts a span without making it active; the caller ends it. */
  start(name: string, options?: PackSpanOptions): PackSpan;
  /**
   * Runs `work` with a new span active (spans and log records made meanwhile are its children), and ends
   * the span when `work` settles; a throw fails the span and is rethrown.
   */
  within<T>(name: string, options: PackSpanOptions, work: (span: PackSpan) => Promise<T>): Promise<T>;
  /**
   * The W3C trace-context fields (`traceparent`, `tracestate`) of the span active now, for a message made
   * inside it that needs no span of its own; empty when no span is active or no SDK is registered.
   */
  activeCarrier(): Record<string, string>;
}

/** What an instrumented client (a store provider, an outbox, a poller) is given by the engine. */
export interface PackTelemetry {
  readonly meter: PackMeter;
  readonly tracer: PackTracer;
}

/**
 * The semantic conventions' `error.type` of a failure: the error's string `code` (`STORE_UNAVAILABLE`,
 * `ECONNREFUSED`), else its class name, else `_OTHER`.
 */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = 'code' in error ? error.code : undefined;
    if (typeof code === 'string' && code.length > 0) return code;
    const name = error.constructor?.name;
    if (name && name !== 'Object') return name;
  }
  return '_OTHER';
}
