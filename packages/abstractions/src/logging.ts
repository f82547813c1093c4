/** Log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A structured log record. `eventId` is one of the spec's diagnostic event ids (section 6). */
export interface LogRecord {
  readonly level: LogLevel;
  readonly eventId: number;
  readonly message: string;
  readonly category?: string;
  readonly [field: string]: unknown;
}

/** Where the engine writes structured records. Records are already redacted of known secrets. */
export interface Logger {
  log(record: LogRecord): void;
}
