import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { logs, SeverityNumber, type AnyValue } from '@opentelemetry/api-logs';
import type { LogLevel, LogRecord } from '@corekit/abstractions';

/** The OpenTelemetry logger name the engine's records are emitted under. */
export const engineLoggerName = 'corekit.engine';

const severities: Record<LogLevel, SeverityNumber> = {
  debug: SeverityNumber.DEBUG,
  info: SeverityNumber.INFO,
  warn: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
};

/**
 * The record with the active span's context, in the field names OpenTelemetry gives trace context in non-OTLP
 * log formats (`trace_id`, `span_id`, `trace_flags`), so a JSON line can be joined to its trace. Unchanged
 * when no span is active (no SDK started, or outside any span) or when the record already carries one.
 */
export function withTraceContext(record: LogRecord): LogRecord {
  if (record.trace_id !== undefined) return record;
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return record;
  return {
    ...record,
    trace_id: spanContext.traceId,
    span_id: spanContext.spanId,
    trace_flags: spanContext.traceFlags.toString(16).padStart(2, '0'),
  };
}

/**
 * Emits an (already redacted) record of level info and up through the OpenTelemetry logs API: a no-op until an
 * SDK registers a logger provider, then a log record with the severity, the message as body, the active context (trace and
 * span ids) and every other field as an attribute (`eventId` as `event.id`; objects as JSON text).
 */
export function emitLogRecord(record: LogRecord): void {
  // Debug records stay with the host's logger: exporting every one of them (a record per publication, per
  // check) would cost more than the telemetry of the requests they belong to.
  if (record.level === 'debug') return;
  const {
    level,
    message,
    eventId,
    trace_id: _traceId,
    span_id: _spanId,
    trace_flags: _flags,
    ...rest
  } = record;
  const attributes: Record<string, AnyValue> = { 'event.id': eventId };
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    attributes[key] =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : JSON.stringify(value);
  }
  logs.getLogger(engineLoggerName).emit({
    severityNumber: severities[level],
    severityText: level.toUpperCase(),
    body: message,
    attributes,
    context: context.active(),
  });
}
