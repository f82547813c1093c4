import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '@corekit/testing/poll-until';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addConsole } from './add-console';
import { closeConsoleHosts, startConsoleHost, type ConsoleTestHost } from './test-support/console-test-host';
import { switchableDependency, type SwitchableDependency } from './test-support/switchable-dependency';

afterEach(closeConsoleHosts);

interface HistoryAnswer {
  store: { kind: string; durable: boolean } | null;
  summary: { checks: number; outcomes: Record<string, number> };
  samples: Array<{ outcome: string; durationMs: number | null }>;
}

async function history(test: ConsoleTestHost, id: string): Promise<HistoryAnswer> {
  return (await (await test.get(`/engine/console/history/${id}?windowMinutes=60`)).json()) as HistoryAnswer;
}

function withDependency(dependency: SwitchableDependency) {
  return (builder: { addDependencyHealthContributor(contributor: SwitchableDependency): unknown }) =>
    builder.addDependencyHealthContributor(dependency);
}

describe('dependency history through the host', () => {
  it('records every completed check pushed by the engine, failed, timed out and degraded apart', async () => {
    const dependency = switchableDependency('orders-db');
    const test = await startConsoleHost({ setup: withDependency(dependency) });
    for (const mode of ['failed', 'hang', 'degraded'] as const) {
      dependency.mode = mode;
      const outcome = mode === 'hang' ? 'timed-out' : mode;
      const seen = await pollUntil(
        () => history(test, 'orders-db'),
        (answer) => (answer.summary.outcomes[outcome] ?? 0) > 0,
        { timeoutMs: 10_000 },
      );
      expect(seen.summary.outcomes[outcome]).toBeGreaterThan(0);
    }
    const answer = await history(test, 'orders-db');
    expect(answer.summary.outcomes.healthy).toBeGreaterThan(0);
    expect(answer.samples.every((sample) => typeof sample.durationMs === 'number')).toBe(true);
    expect((await test.get('/engine/console/history/nope')).status).toBe(404);
    const recent = (await (await test.get('/engine/console/history?perDependency=2')).json()) as {
      dependencies: Record<string, Array<{ checkedAtUtc: string }>>;
    };
    expect(Object.keys(recent.dependencies)).toEqual(['orders-db']);
    expect(recent.dependencies['orders-db']).toHaveLength(2);
    const [older, newer] = recent.dependencies['orders-db'];
    expect(Date.parse(newer.checkedAtUtc)).toBeGreaterThan(Date.parse(older.checkedAtUtc));
  });

  it('reports the store the history lives on as installed, and on a File store the history survives a restart', async () => {
    const memory = await startConsoleHost({ setup: withDependency(switchableDependency('orders-db')) });
    const memoryInfo = (await (await memory.get('/engine/console/info')).json()) as {
      history: { store: { kind: string; durable: boolean } };
    };
    expect(memoryInfo.history.store).toEqual({ kind: 'memory', durable: false, shared: false });
    await memory.close();

    const directory = mkdtempSync(path.join(os.tmpdir(), 'console-history-'));
    try {
      const configuration = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
      const first = await startConsoleHost({
        configuration,
        setup: withDependency(switchableDependency('orders-db')),
      });
      const recorded = await pollUntil(
        () => history(first, 'orders-db'),
        (answer) => answer.summary.checks >= 3,
        { timeoutMs: 10_000 },
      );
      expect(recorded.store).toEqual({ kind: 'file', durable: true, shared: false });
      await first.close();

      const paused = switchableDependency('orders-db', { refreshIntervalSeconds: 3600 });
      const second = await startConsoleHost({ configuration, setup: withDependency(paused) });
      const after = await history(second, 'orders-db');
      expect(after.summary.checks).toBeGreaterThanOrEqual(recorded.summary.checks);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses a misspelled Engine:Console key, naming it and the closest known key', () => {
    const { builder } = createTestEngineBuilder({
      configuration: { Engine: { Console: { HistoryRetentionMinute: 5 } } },
    });
    addConsole(builder);
    const engine = builder.build();
    expect(() => engine.checkConfiguration?.()).toThrow(
      /Engine:Console:HistoryRetentionMinute\b[\s\S]*HistoryRetentionMinutes/,
    );
  });

  it('refuses a value out of range at registration, naming the key path', () => {
    const { builder } = createTestEngineBuilder({
      configuration: { Engine: { Console: { HistoryBucketSeconds: 1 } } },
    });
    expect(() => addConsole(builder)).toThrow(/Engine:Console:HistoryBucketSeconds/);
  });
});
