import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ModuleDefinition } from '@corekit/abstractions';
import { buildEventing, declareOrders, eventually, startEventing } from './test-support/eventing-fixture';

const engines: Array<{ stop(): Promise<void> }> = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function start(...args: Parameters<typeof startEventing>) {
  const started = await startEventing(...args);
  engines.push(started.engine);
  return started;
}

const placed = (id: string) => ({
  id,
  channelId: 'orders',
  eventType: 'order-placed',
  payload: { orderId: id },
});

describe('eventing across the engine lifecycle', () => {
  it('runs in-process subscriptions again after engine.restart() (direct lane)', async () => {
    const delivered: string[] = [];
    const { engine, publish } = await start({}, (builder) =>
      declareOrders(builder, { billing: ({ message }) => void delivered.push(message.publicationId) }),
    );
    await publish(placed('before'));
    expect(delivered).toEqual(['before']);
    await engine.restart();
    const answer = await publish(placed('after'));
    expect(delivered).toEqual(['before', 'after']);
    expect(answer.body).toMatchObject({
      metadata: { succeededSubscriptionCount: 1, failedSubscriptionCount: 0 },
    });
    expect(engine.catalog('event-subscription-readiness')!.find('billing')).toMatchObject({
      readinessState: 'runtime-bound',
      metadata: { 'reported.failedCount': 0, 'reported.succeededCount': 2 },
    });
  });

  it('dispatches staged messages again after engine.restart() (outbox lane)', async () => {
    const delivered: string[] = [];
    const { engine, publish } = await start(
      { Outbox: { Enabled: true, DispatchIntervalMilliseconds: 10, RetryDelayMilliseconds: 0 } },
      (builder) =>
        declareOrders(builder, { billing: ({ message }) => void delivered.push(message.publicationId) }),
    );
    await publish(placed('before'));
    await eventually(() => delivered.includes('before'));
    await engine.restart();
    await publish(placed('after'));
    await eventually(() => delivered.includes('after'));
    expect(engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      failedCount: 0,
      terminalFailure: false,
    });
  });

  it('a drain leaves staged messages staged: passes during stopping consume no attempt; the next start on File delivers them', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'eventing-drain-'));
    folders.push(directory);
    const stores = { Engine: { Stores: { Provider: 'File', Directory: directory } } };
    const options = {
      Outbox: {
        Enabled: true,
        DispatchIntervalMilliseconds: 3_600_000,
        RetryDelayMilliseconds: 0,
        MaxAttempts: 2,
      },
    };
    const ran: string[] = [];
    const first = await startEventing(
      options,
      (builder) => declareOrders(builder, { billing: ({ message }) => void ran.push(message.publicationId) }),
      stores,
    );
    // The startup pass found nothing; the message waits for the next pass.
    await eventually(() => first.engine.jobs().find((job) => job.id === 'eventing.dispatch')!.runCount >= 1);
    await first.publish(placed('drained'));
    first.engine.beginShutdown();
    for (let pass = 0; pass < 3; pass += 1) await first.registration.dispatchJob!.trigger();
    await first.engine.stop();
    expect(ran).toEqual([]);
    const dispatches = first.engine.catalog('event-dispatches')!.find('eventing-outbox') as
      Record<string, unknown> | undefined;
    expect(dispatches?.failedCount ?? 0).toBe(0);
    expect(dispatches?.terminalFailure ?? false).toBe(false);

    const second = await start(
      options,
      (builder) => declareOrders(builder, { billing: ({ message }) => void ran.push(message.publicationId) }),
      stores,
    );
    await eventually(() => ran.includes('drained'));
    expect(ran).toEqual(['drained']);
    expect(second.engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      attempt: 1,
      failedCount: 0,
      terminalFailure: false,
    });
  });

  it('an executor interrupted by a stop consumes no attempt: the message is delivered after the next start on File', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'eventing-interrupt-'));
    folders.push(directory);
    // The stopping hook waits for the executor, which ends only when the engine aborts its signal: that
    // happens once the engine's budget for stopping hooks has passed, kept short here.
    const stores = {
      Engine: {
        Stores: { Provider: 'File', Directory: directory },
        Shutdown: { StoppingHooksTimeout: '200ms' },
      },
    };
    const options = {
      Outbox: { Enabled: true, DispatchIntervalMilliseconds: 10, RetryDelayMilliseconds: 0, MaxAttempts: 1 },
    };
    const attempts: Array<{ id: string; attempt: number }> = [];
    let entered = false;
    const first = await startEventing(
      options,
      (builder) =>
        declareOrders(builder, {
          billing: ({ message, signal, attempt }) => {
            attempts.push({ id: message.publicationId, attempt });
            entered = true;
            // Never finishes on its own: only the stop ends it.
            return new Promise<void>((_, reject) =>
              signal.addEventListener('abort', () => reject(new Error('aborted by the stop')), {
                once: true,
              }),
            );
          },
        }),
      stores,
    );
    await first.publish(placed('in-flight'));
    await eventually(() => entered);
    await first.engine.stop();
    const dispatches = first.engine.catalog('event-dispatches')!.find('eventing-outbox') as Record<
      string,
      unknown
    >;
    expect(dispatches.terminalFailure).toBe(false);
    expect(dispatches.failedCount).toBe(0);

    const delivered: string[] = [];
    const second = await start(
      options,
      (builder) =>
        declareOrders(builder, { billing: ({ message }) => void delivered.push(message.publicationId) }),
      stores,
    );
    await eventually(() => delivered.includes('in-flight'));
    expect(second.engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
      failedCount: 0,
      terminalFailure: false,
    });
  });
});

/** A module that fails its first start in the given way, then starts normally. */
function failsFirstStart(how: 'throws' | 'hangs'): ModuleDefinition {
  let attempts = 0;
  return {
    id: 'flaky-upstream',
    version: '1.0.0',
    start: () => {
      if (++attempts > 1) return undefined;
      if (how === 'hangs') return new Promise<void>(() => undefined);
      throw Object.assign(new Error('the upstream is not ready'), { code: 'UPSTREAM_NOT_READY' });
    },
  };
}

describe('eventing after a failed start, then engine.restart()', () => {
  const lifecycle = (timeout?: string) => ({
    Engine: {
      FailurePolicy: { ManualRestartBackoff: '0s' },
      ...(timeout ? { Startup: { Timeout: timeout } } : {}),
    },
  });

  it.each([
    ['a module whose start throws', 'throws', 'UPSTREAM_NOT_READY', undefined],
    ['the startup timeout', 'hangs', 'ENGINE_START_TIMEOUT', '50ms'],
  ] as const)(
    '%s: publishing is refused while Failed, staged delivery comes back after the restart (outbox lane)',
    async (_case, how, code, timeout) => {
      const staged: string[] = [];
      const { engine, publish } = buildEventing(
        { Outbox: { Enabled: true, DispatchIntervalMilliseconds: 10, RetryDelayMilliseconds: 0 } },
        (builder) => {
          builder.addModule(failsFirstStart(how));
          declareOrders(builder, {
            billing: ({ message }) => void staged.push(message.publicationId),
          });
        },
        lifecycle(timeout),
      );
      engines.push(engine);
      await expect(engine.start()).rejects.toMatchObject({
        code: how === 'hangs' ? 'ENGINE_START_TIMEOUT' : 'ENGINE_START_FAILED',
      });
      expect(engine.state).toBe('Failed');
      expect(engine.status().lastFailure).toMatchObject({ code, restartable: true });
      await expect(publish(placed('while-failed'))).rejects.toMatchObject({ code: 'OPERATION_UNAVAILABLE' });

      await engine.restart();
      expect(engine.state).toBe('Started');
      await publish(placed('after-restart'));
      await eventually(() => staged.includes('after-restart'));
      expect(staged).toEqual(['after-restart']);
      expect(engine.catalog('event-dispatches')!.find('eventing-outbox')).toMatchObject({
        failedCount: 0,
        terminalFailure: false,
      });
    },
  );

  it('a module whose start throws: in-process subscriptions run after the restart (direct lane)', async () => {
    const delivered: string[] = [];
    const { engine, publish } = buildEventing(
      {},
      (builder) => {
        builder.addModule(failsFirstStart('throws'));
        declareOrders(builder, { billing: ({ message }) => void delivered.push(message.publicationId) });
      },
      lifecycle(),
    );
    engines.push(engine);
    await expect(engine.start()).rejects.toMatchObject({ code: 'ENGINE_START_FAILED' });
    await engine.restart();
    const answer = await publish(placed('after-restart'));
    expect(delivered).toEqual(['after-restart']);
    expect(answer.body).toMatchObject({
      metadata: { succeededSubscriptionCount: 1, failedSubscriptionCount: 0 },
    });
  });
});
