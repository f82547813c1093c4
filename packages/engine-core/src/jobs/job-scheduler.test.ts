import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { JobRunContext, StoryEntryInput } from '@corekit/abstractions';
import { manualClock, systemClock, type Clock } from '../clock';
import { createMemoryLogger } from '../logger';
import { JobScheduler, type JobSchedulerOptions } from './job-scheduler';

function setup(overrides: Partial<JobSchedulerOptions> & { clock?: Clock } = {}) {
  const entries: StoryEntryInput[] = [];
  const logger = createMemoryLogger();
  const runs: Array<{ jobId: string; outcome: string }> = [];
  const scheduler = new JobScheduler({
    clock: systemClock,
    story: { record: (entry) => void entries.push(entry) },
    logger,
    onRun: (jobId, outcome) => void runs.push({ jobId, outcome }),
    ...overrides,
  });
  return { scheduler, entries, logger, runs };
}

/** Polls until `condition` holds; fails the test (instead of hanging) when it never does. */
async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('JobScheduler', () => {
  it('never runs one job twice at once, whatever mix of interval ticks and manual triggers', async () => {
    const { scheduler } = setup();
    let active = 0;
    let maximum = 0;
    const triggers: string[] = [];
    const handle = scheduler.add({
      id: 'slow',
      intervalMs: 1,
      runOnStartup: true,
      async run(context) {
        triggers.push(context.trigger);
        active++;
        maximum = Math.max(maximum, active);
        await new Promise((resolve) => setTimeout(resolve, 15));
        active--;
      },
    });
    scheduler.start();
    const outcomes: string[] = [];
    while (triggers.length < 6) {
      const burst = await Promise.all([handle.trigger(), handle.trigger(), handle.trigger()]);
      outcomes.push(...burst.map((outcome) => outcome.status));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await scheduler.stop();
    expect(maximum).toBe(1);
    expect(triggers).toContain('manual');
    expect(triggers).toContain('interval');
    expect(outcomes).toContain('already-running');
  });

  it('answers already-running to a trigger during a run and leaves the running run alone', async () => {
    const { scheduler } = setup();
    const release = deferred();
    const contexts: JobRunContext[] = [];
    const handle = scheduler.add({
      id: 'manual-only',
      async run(context) {
        contexts.push(context);
        await release.promise;
        return 'done';
      },
    });
    scheduler.start();
    const first = handle.trigger();
    await until(() => contexts.length === 1, 'the first run');
    const second = await handle.trigger();
    expect(second).toEqual({ status: 'already-running', runningRunId: contexts[0].runId });
    expect(contexts).toHaveLength(1);
    expect(contexts[0].signal.aborted).toBe(false);
    expect(handle.state().running).toBe(true);
    release.resolve();
    expect(await first).toEqual({
      status: 'completed',
      runId: contexts[0].runId,
      iteration: 1,
      result: 'done',
    });
    expect(contexts[0].runId).toMatch(/^manual-only:1:[0-9a-f]+$/);
    expect(handle.state()).toMatchObject({ running: false, runCount: 1, lastOutcome: 'completed' });
    await scheduler.stop();
  });

  it('runs a startup job after its delay, with the trigger and delay in the story and the state', async () => {
    const clock = manualClock();
    const { scheduler, entries } = setup({ clock });
    const contexts: JobRunContext[] = [];
    const startupJob = scheduler.add({
      id: 'warm-up',
      owner: 'search',
      runOnStartup: true,
      startupDelayMs: 20,
      run: async (context) => void contexts.push(context),
    });
    const intervalJob = scheduler.add({ id: 'poll', intervalMs: 60_000, run: async () => {} });
    expect(startupJob.state().nextRunAtUtc).toBeNull();
    scheduler.start();
    const startedAt = clock.now();
    expect(startupJob.state().nextRunAtUtc).toBe(new Date(startedAt + 20).toISOString());
    expect(intervalJob.state().nextRunAtUtc).toBe(new Date(startedAt + 60_000).toISOString());

    await until(() => startupJob.state().runCount === 1, 'the startup run');
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toMatchObject({ jobId: 'warm-up', iteration: 1, trigger: 'startup' });
    expect(startupJob.state()).toMatchObject({
      owner: 'search',
      runOnStartup: true,
      startupDelayMs: 20,
      intervalMs: null,
      lastTrigger: 'startup',
      lastOutcome: 'completed',
      lastStartedAtUtc: new Date(startedAt).toISOString(),
      nextRunAtUtc: null,
    });
    const [started, completed] = entries.filter((entry) => entry.subjectId === 'warm-up');
    expect(started).toMatchObject({
      kind: 'job',
      transition: 'started',
      details: { runId: contexts[0].runId, iteration: 1, trigger: 'startup', startupDelayMs: 20 },
    });
    expect(completed).toMatchObject({
      kind: 'job',
      transition: 'completed',
      details: { runId: contexts[0].runId, durationMs: expect.any(Number) },
    });
    expect(scheduler.states().map((state) => state.id)).toEqual(['warm-up', 'poll']);
    await scheduler.stop();
  });

  it('records a failing run, logs its message without a stack, and still runs the next interval', async () => {
    const { scheduler, entries, logger, runs } = setup();
    let calls = 0;
    const handle = scheduler.add({
      id: 'flaky',
      intervalMs: 2,
      runOnStartup: true,
      async run() {
        calls++;
        if (calls === 1) throw new Error('upstream refused');
      },
    });
    scheduler.start();
    await until(() => handle.state().runCount >= 2, 'a run after the failure');
    await scheduler.stop();
    expect(handle.state()).toMatchObject({ failureCount: 1, lastOutcome: 'completed', lastError: null });
    const failed = entries.find((entry) => entry.transition === 'failed');
    expect(failed).toMatchObject({
      kind: 'job',
      subjectId: 'flaky',
      details: {
        iteration: 1,
        trigger: 'startup',
        error: 'upstream refused',
        durationMs: expect.any(Number),
      },
    });
    expect(
      entries.some((entry) => entry.transition === 'completed' && entry.details?.trigger === 'interval'),
    ).toBe(true);
    const record = logger.records.find((entry) => entry.level === 'error');
    expect(record).toMatchObject({
      eventId: 2031,
      jobId: 'flaky',
      message: expect.stringContaining('upstream refused'),
    });
    expect(JSON.stringify(logger.records)).not.toContain('at ');
    expect(runs.slice(0, 2)).toEqual([
      { jobId: 'flaky', outcome: 'failed' },
      { jobId: 'flaky', outcome: 'completed' },
    ]);
  });

  it('keeps the last error message of a failing manual run in the state', async () => {
    const { scheduler } = setup();
    const handle = scheduler.add({
      id: 'broken',
      run: () => {
        throw new Error('bad input');
      },
    });
    scheduler.start();
    expect(await handle.trigger()).toMatchObject({ status: 'failed', iteration: 1, error: 'bad input' });
    expect(handle.state()).toMatchObject({ running: false, failureCount: 1, lastError: 'bad input' });
    expect(await handle.trigger()).toMatchObject({ status: 'failed', iteration: 2 });
    await scheduler.stop();
  });

  it('aborts the signal of a running run on stop and waits for the run to finish', async () => {
    const { scheduler } = setup();
    let finished = false;
    let signal: AbortSignal | null = null;
    const handle = scheduler.add({
      id: 'cooperative',
      runOnStartup: true,
      async run(context) {
        signal = context.signal;
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        await new Promise((resolve) => setTimeout(resolve, 10));
        finished = true;
      },
    });
    scheduler.start();
    await until(() => handle.state().running, 'the startup run');
    await scheduler.stop();
    expect(signal!.aborted).toBe(true);
    expect(finished).toBe(true);
    expect(handle.state()).toMatchObject({ running: false, runCount: 1 });
  });

  it('stops waiting after stopTimeoutMs, records the abandoned run and never starts it twice', async () => {
    const { scheduler, entries, logger } = setup({ stopTimeoutMs: 20 });
    const release = deferred();
    let started = 0;
    const handle = scheduler.add({
      id: 'stubborn',
      runOnStartup: true,
      async run() {
        started++;
        await release.promise;
      },
    });
    scheduler.start();
    await until(() => handle.state().running, 'the startup run');
    await scheduler.stop();
    expect(await handle.trigger()).toMatchObject({ status: 'not-running' });
    expect(entries.find((entry) => entry.transition === 'abandoned')).toMatchObject({
      subjectId: 'stubborn',
    });
    expect(logger.records.find((record) => record.level === 'warn')).toMatchObject({ eventId: 2032 });

    scheduler.start();
    expect(await handle.trigger()).toMatchObject({ status: 'already-running' });
    release.resolve();
    await until(() => !handle.state().running, 'the abandoned run to settle');
    expect(await handle.trigger()).toMatchObject({ status: 'completed', iteration: 2 });
    expect(started).toBe(2);
    await scheduler.stop();
  });

  it('answers not-running before start and after stop, and runs again after a restart', async () => {
    const { scheduler } = setup();
    const iterations: number[] = [];
    const handle = scheduler.add({
      id: 'ticker',
      intervalMs: 2,
      run: async (context) => void iterations.push(context.iteration),
    });
    expect(await handle.trigger()).toMatchObject({ status: 'not-running' });
    scheduler.start();
    await until(() => iterations.length >= 2, 'two interval runs');
    await scheduler.stop();
    const afterStop = iterations.length;
    expect(await handle.trigger()).toEqual({ status: 'not-running', reason: expect.any(String) });
    expect(handle.state().nextRunAtUtc).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(iterations).toHaveLength(afterStop);

    scheduler.start();
    await until(() => iterations.length >= afterStop + 2, 'interval runs after the restart');
    expect(await handle.trigger()).toMatchObject({ status: 'completed' });
    await scheduler.stop();
    expect(iterations).toEqual(iterations.map((_, index) => index + 1));
  });

  it('rejects bad ids, duplicate ids and bad delays with JOB_INVALID', () => {
    const { scheduler } = setup();
    const run = async () => {};
    scheduler.add({ id: 'taken', run });
    for (const job of [
      { id: '-bad', run },
      { id: 'taken', run },
      { id: 'zero', intervalMs: 0, run },
      { id: 'not-a-number', intervalMs: Number.NaN, run },
      { id: 'negative-delay', startupDelayMs: -1, run },
    ]) {
      expect(() => scheduler.add(job)).toThrow(expect.objectContaining({ code: 'JOB_INVALID' }));
    }
    expect(scheduler.states()).toHaveLength(1);
  });

  it('never keeps the process alive: a child exits while a long-interval job is scheduled', () => {
    const root = path.resolve(__dirname, '../../../..');
    // Runs the TypeScript sources in a plain node process: .ts compiled by @swc/core, @corekit/* mapped to sources.
    const script = `
      const Module = require('node:module');
      const fs = require('node:fs');
      const swc = require(require.resolve('@swc/core', { paths: [${JSON.stringify(root)}] }));
      Module._extensions['.ts'] = (module, filename) => module._compile(swc.transformSync(
        fs.readFileSync(filename, 'utf8'),
        { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
      ).code, filename);
      const resolve = Module._resolveFilename;
      Module._resolveFilename = function (request, ...rest) {
        const match = /^@corekit\\/([a-z0-9-]+)$/.exec(request);
        if (match) request = ${JSON.stringify(root)} + '/packages/' + match[1] + '/src/index.ts';
        return resolve.call(this, request, ...rest);
      };
      const { JobScheduler } = require(${JSON.stringify(path.join(__dirname, 'job-scheduler.ts'))});
      const scheduler = new JobScheduler({
        clock: { now: () => Date.now() }, story: { record() {} }, logger: { log() {} },
      });
      scheduler.add({ id: 'hourly', intervalMs: 3600000, run: async () => {} });
      scheduler.add({ id: 'late-startup', runOnStartup: true, startupDelayMs: 3600000, run: async () => {} });
      scheduler.start();
      console.log('scheduled ' + scheduler.states().filter((state) => state.nextRunAtUtc).length);
    `;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('scheduled 2');
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
  });
});
