import type { LogLevel, LogRecord, Logger } from '@corekit/abstractions';

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
 * however deep. Secrets are registered as configuration is bound.
 */
export class RedactingLogger implements Logger {
  private readonly secrets = new Set<string>();

  constructor(private readonly inner: Logger) {}

  addSecret(value: string): void {
    if (value.length >= 3) this.secrets.add(value);
  }

  redact<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return redactValue(value, [...this.secrets]) as T;
  }

  log(record: LogRecord): void {
    this.inner.log(this.redact(record));
  }
}

function redactValue(value: unknown, secrets: string[], depth = 0): unknown {
  if (typeof value === 'string') {
    let result = value;
    for (const secret of secrets) if (result.includes(secret)) result = result.split(secret).join('***');
    return result;
  }
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error)
    return redactValue({ name: value.name, message: value.message }, secrets, depth + 1);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, redactValue(item, secrets, depth + 1)]),
  );
}
