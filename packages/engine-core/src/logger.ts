import { redactValue, type LogLevel, type LogRecord, type Logger } from '@corekit/abstractions';
import { emitLogRecord, withTraceContext } from './log-telemetry';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Writes one JSON object per line to a stream (stdout by default), from `minimumLevel` up. */
export function createJsonLogger(
  options: { minimumLevel?: LogLevel; write?: (line: string) => void } = {},
): Logger {
  const minimum = order[options.minimumLevel ?? 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  return {
    log(record) {
      if (order[record.level] < minimum) return;
      write(`${JSON.stringify({ timestamp: new Date().toISOString(), ...record })}\n`);
    },
  };
}

/** A logger that keeps records in memory, for tests and the sample hosts. */
export function createMemoryLogger(): Logger & { readonly records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { records, log: (record) => void records.push(record) };
}

/**
 * Wraps a logger so that every registered secret is replaced by `***` in every string field of every record,
 * however deep, URL credentials are stripped and Errors are reduced to name and message (the abstractions
 * `redactValue`, the same algorithm probes use). Secrets are registered as configuration is bound; values
 * shorter than three characters are not registered (replacing every "a" would garble records and hide nothing).
 */
export class RedactingLogger implements Logger {
  private readonly secrets = new Set<string>();

  constructor(private readonly inner: Logger) {}

  addSecret(value: string): void {
    if (typeof value === 'string' && value.length >= 3) this.secrets.add(value);
  }

  redact<T>(value: T): T {
    return redactValue(value, [...this.secrets]);
  }

  /**
   * Writes the redacted record, with the active span's `trace_id` and `span_id` when there is one, and emits
   * it through the OpenTelemetry logs API (a no-op until an SDK is started).
   */
  log(record: LogRecord): void {
    const redacted = this.redact(withTraceContext(record));
    this.inner.log(redacted);
    emitLogRecord(redacted);
  }
}
