import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixture } from '@corekit/testing/child-process';
import { postgresSource, postgresUrl } from './test-support/postgres-source';

// Real PostgreSQL (POSTGRES_URL or 127.0.0.1:5432, database test); the pump runs in a child process (tsx).
jest.setTimeout(120_000);

const packageDirectory = join(__dirname, '..');
const rows = 3000;

describe('a pump killed mid-stream and restarted', () => {
  it('loses no change and stages none twice: the outbox holds every change exactly once', async () => {
    const source = await postgresSource('cdckill');
    const children: Array<ReturnType<typeof startFixture>> = [];
    try {
      await source.insert(rows);
      const environment = {
        POSTGRES_URL: postgresUrl,
        SOURCE_TABLE: source.source,
        OUTBOX_TABLE: source.outbox,
        STORE_DIRECTORY: mkdtempSync(join(tmpdir(), 'data-pump-kill-')),
        TARGET: String(rows),
      };
      const first = startFixture(packageDirectory, 'pump-process.ts', environment);
      children.push(first);
      let staged = 0;
      while (staged < 200) {
        await first.waitForLine('PASS', 60_000);
        staged = (await source.outboxRows('orders')).total;
        if (staged === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull();
      const afterKill = await source.outboxRows('orders');
      expect(afterKill.total).toBeLessThan(rows);

      const second = startFixture(packageDirectory, 'pump-process.ts', environment);
      children.push(second);
      const done = await second.waitForLine('DONE', 90_000);
      expect(await second.exited).toBe(0);
      expect(await source.outboxRows('orders')).toEqual({ total: rows, distinct: rows, maxChange: rows });
      const missing = await source.client.query(
        `SELECT count(*)::int AS n FROM ${source.source} s
         WHERE NOT EXISTS (SELECT 1 FROM ${source.outbox} o WHERE o.cdc_capture_id = 'orders' AND o.change_id = s.change_id::text)`,
      );
      expect(missing.rows[0].n).toBe(0);
      const totals = JSON.parse(done.slice(done.indexOf('{')));
      // A batch staged just before the kill is in the outbox but not in the counters (its report never ran);
      // re-staging it after the restart produced nothing. The counters never exceed the outbox.
      expect(totals.totalProduced).toBeLessThanOrEqual(rows);
      expect(totals.totalCaptured).toBeGreaterThanOrEqual(rows);
    } finally {
      for (const child of children) if (child.child.exitCode === null) child.child.kill('SIGKILL');
      await source.drop();
    }
  });
});
