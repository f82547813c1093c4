import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import {
  errorTypeOf,
  type PackSpan,
  type PackSpanKind,
  type PackSpanOptions,
  type PackTracer,
} from '@corekit/abstractions';
import { engineTracer } from '../diagnostics';

const kinds: Record<PackSpanKind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/** The W3C fields of a header map (string values only); other headers are not the propagator's business. */
function traceFieldsOf(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of ['traceparent', 'tracestate']) {
    const value = headers[name];
    if (typeof value === 'string') fields[name] = value;
    else if (Buffer.isBuffer(value)) fields[name] = value.toString('utf8');
  }
  return fields;
}

/** The context a span starts in: the carried trace when `parent` holds one, else the active context. */
function parentContextOf(options: PackSpanOptions): Context {
  const active = context.active();
  if (!options.parent) return active;
  const extracted = propagation.extract(active, traceFieldsOf(options.parent));
  return trace.getSpanContext(extracted) ? extracted : active;
}

function linksOf(options: PackSpanOptions): Link[] | undefined {
  if (!options.links || options.links.length === 0) return undefined;
  const links: Link[] = [];
  for (const carrier of options.links) {
    const spanContext = trace.getSpanContext(propagation.extract(context.active(), traceFieldsOf(carrier)));
    if (spanContext) links.push({ context: spanContext });
  }
  return links;
}

class EngineSpan implements PackSpan {
  constructor(readonly span: Span) {}

  setAttribute(name: string, value: string | number | boolean): void {
    this.span.setAttribute(name, value);
  }

  fail(error: unknown): void {
    this.span.setAttribute('error.type', errorTypeOf(error));
    // No message: a driver's error text may name what a span must not carry; `error.type` says what failed.
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  carrier(): Record<string, string> {
    const fields: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), this.span), fields);
    return fields;
  }

  end(): void {
    this.span.end();
  }
}

/**
 * Spans for packs on the engine's tracer (`corekit.engine`), through the OpenTelemetry API: a no-op until an
 * SDK registers, then the SDK's spans, with the registered propagator (W3C trace context by default) for
 * the trace a message carries.
 */
export class EngineTracer implements PackTracer {
  start(name: string, options: PackSpanOptions = {}): PackSpan {
    return new EngineSpan(this.open(name, options, parentContextOf(options)));
  }

  async within<T>(name: string, options: PackSpanOptions, work: (span: PackSpan) => Promise<T>): Promise<T> {
    const parent = parentContextOf(options);
    const span = this.open(name, options, parent);
    const packSpan = new EngineSpan(span);
    try {
      return await context.with(trace.setSpan(parent, span), () => work(packSpan));
    } catch (error) {
      packSpan.fail(error);
      throw error;
    } finally {
      span.end();
    }
  }

  activeCarrier(): Record<string, string> {
    const fields: Record<string, string> = {};
    propagation.inject(context.active(), fields);
    return fields;
  }

  private open(name: string, options: PackSpanOptions, parent: Context): Span {
    return engineTracer().startSpan(
      name,
      { kind: kinds[options.kind ?? 'internal'], attributes: options.attributes, links: linksOf(options) },
      parent,
    );
  }
}
