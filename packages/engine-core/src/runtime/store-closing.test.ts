import type { LogRecord } from '@corekit/abstractions';
import { closeStoreProvider } from './store-closing';

function sinks() {
  const entries: Array<{ transition: string; message: string }> = [];
  const records: LogRecord[] = [];
  return {
    entries,
    records,
    story: { record: (entry: { transition: string; message: string }) => void entries.push(entry) } as never,
    logger: {
      log: (record: LogRecord) => void records.push(record),
      redact: (value: string) => value.replace('s3cret', '***'),
    },
  };
}

describe('closeStoreProvider', () => {
  it('records nothing when the provider closes in time', async () => {
    const { entries, records, story, logger } = sinks();
    await closeStoreProvider(async () => undefined, 1000, story, logger);
    expect(entries).toEqual([]);
    expect(records).toEqual([]);
  });

  it('records and logs a failed close, redacted, and resolves', async () => {
    const { entries, records, story, logger } = sinks();
    await closeStoreProvider(() => Promise.reject(new Error('auth s3cret refused')), 1000, story, logger);
    expect(entries).toEqual([
      expect.objectContaining({
        transition: 'stop-failed',
        message: 'The store provider failed to close: auth *** refused',
      }),
    ]);
    expect(records).toEqual([expect.objectContaining({ level: 'error', message: entries[0].message })]);
  });

  it('stops waiting after the budget and says so', async () => {
    const { entries, story, logger } = sinks();
    await closeStoreProvider(() => new Promise(() => undefined), 20, story, logger);
    expect(entries[0].message).toBe(
      'The store provider did not close within Engine:Shutdown:StoreCloseTimeout (20 ms); the stop goes on',
    );
  });
});
