import type { LogRecord, Logger } from '@corekit/abstractions';

/** A logger that keeps every record, for assertions on event ids and on what never appears in logs. */
export interface CaptureLogger extends Logger {
  readonly records: LogRecord[];
  /** All records as one JSON text (to search for secrets). */
  text(): string;
  /** Records carrying `eventId`. */
  withEventId(eventId: number): LogRecord[];
}

export function captureLogger(): CaptureLogger {
  const records: LogRecord[] = [];
  return {
    records,
    log(record) {
      records.push(record);
    },
    text: () => records.map((record) => JSON.stringify(record)).join('\n'),
    withEventId: (eventId) => records.filter((record) => record.eventId === eventId),
  };
}
