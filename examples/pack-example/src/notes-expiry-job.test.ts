import type { RuntimeEvent } from '@corekit/abstractions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatedStoreProvider } from './test-support/gated-store-provider';
import {
  closeNotesHosts,
  startNotesHost,
  testTopics,
  type NotesTestHost,
} from './test-support/notes-test-host';

afterEach(closeNotesHosts);

const day = 24 * 3_600_000;

/** Waits (yielding to the event loop, no wall-clock bound asserted) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 2000 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

const expiryState = (host: NotesTestHost) =>
  host.host.engine.jobs().find((job) => job.id === 'notes.expire')!;

describe('the notes expiry job', () => {
  it('never overlaps itself: a manual run during a run answers 409 already-running, then expires old notes', async () => {
    const stores = new GatedStoreProvider();
    let now = Date.parse('2026-03-01T00:00:00Z');
    const host = await startNotesHost({
      setup: (builder) => builder.useStoreProvider(stores),
      extensions: { now: () => new Date(now) },
    });
    const events: RuntimeEvent[] = [];
    host.host.engine.subscribe((event) => events.push(event));
    await until(() => expiryState(host).runCount === 1); // the startup run

    await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { id: 'old', text: 'a' },
    });
    now += 8 * day;
    await host.request('/engine/notes/general', {
      method: 'POST',
      token: 'writer',
      json: { id: 'new', text: 'b' },
    });

    const held = stores.hold();
    const first = host.request('/engine/notes-expiry/runs', { method: 'POST', token: 'admin' });
    await held;
    expect(expiryState(host).running).toBe(true);
    const overlapping = await host.request('/engine/notes-expiry/runs', { method: 'POST', token: 'admin' });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body).toMatchObject({
      code: 'NOTES_EXPIRY_ALREADY_RUNNING',
      runningRunId: expect.any(String),
    });
    stores.releaseHeld();

    const completed = await first;
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({
      status: 'completed',
      expired: 1,
      runId: overlapping.body.runningRunId,
    });
    expect(stores.maxConcurrentLists).toBe(1);
    expect(
      (await host.request('/engine/notes/general')).body.notes.map((note: { id: string }) => note.id),
    ).toEqual(['new']);
    expect(expiryState(host)).toMatchObject({
      runCount: 2,
      running: false,
      lastTrigger: 'manual',
      lastOutcome: 'completed',
    });

    const again = await host.request('/engine/notes-expiry/runs', { method: 'POST', token: 'admin' });
    expect(again.body).toMatchObject({ status: 'completed', expired: 0 });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'pack-event', name: 'notes.expired', data: { count: 1 } }),
    );
    const timeline = host.host.engine.runtimeStory().timeline;
    expect(timeline).toContainEqual(
      expect.objectContaining({
        kind: 'notes',
        transition: 'expired',
        details: expect.objectContaining({ count: 1 }),
      }),
    );
    expect(host.logger.records).toContainEqual(
      expect.objectContaining({ eventId: 3305, message: 'Deleted 1 expired note(s)' }),
    );
  });

  it('keeps notes in the file store across a restart of the process', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'notes-store-'));
    try {
      const configuration = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
      const first = await startNotesHost({ configuration });
      const created = await first.request('/engine/notes/invoices', {
        method: 'POST',
        token: 'writer',
        json: { id: 'inv-1', text: 'Remind ACME' },
      });
      expect(created.status).toBe(201);
      await closeNotesHosts();

      const second = await startNotesHost({ configuration });
      const read = await second.request('/engine/notes/invoices/inv-1');
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
      // compare-and-set still holds across the restart: the id is taken
      const duplicate = await second.request('/engine/notes/invoices', {
        method: 'POST',
        token: 'writer',
        json: { id: 'inv-1', text: 'again' },
      });
      expect(duplicate.status).toBe(409);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('runs the lifecycle hooks: started logs the note count, stopping publishes notes.stopping before the engine stops', async () => {
    const host = await startNotesHost({ notes: { Topics: testTopics } });
    const events: RuntimeEvent[] = [];
    host.host.engine.subscribe((event) => events.push(event));
    expect(host.logger.records).toContainEqual(
      expect.objectContaining({ eventId: 3301, message: 'Notes pack started: 3 topic(s), 0 note(s) kept' }),
    );
    await host.host.close();
    expect(events).toContainEqual(expect.objectContaining({ type: 'pack-event', name: 'notes.stopping' }));
    const stoppingAt = host.logger.records.findIndex((record) => record.eventId === 3302);
    expect(stoppingAt).toBeGreaterThanOrEqual(0);
    expect(host.host.engine.state).toBe('Stopped');
  });
});
