import { performance } from 'node:perf_hooks';
import type {
  DependencyCheckResult,
  DependencyHealthContributor,
  DependencyHealthEntry,
  EngineBuilder,
} from '@corekit/abstractions';
import type { CaptureLogger } from './capture-logger';
import { createTestEngineBuilder } from './test-engine-builder';
import { blackHoleServer, refusedPort } from './network-helpers';
import { countActiveResources, waitForResourcesAtMost } from './active-resources';

/** A running upstream the probe reports Healthy, and how to reach it. */
export interface HealthyUpstream {
  /** Kind-specific entry fields (Endpoint, Host, Port, credentials...); Id and TimeoutSeconds are set by the suite. */
  readonly entry: Record<string, unknown>;
  /** Secret values in `entry` (passwords, tokens) that must appear in no output. */
  readonly secrets?: readonly string[];
  close(): Promise<void>;
}

export interface ProbeConformanceOptions {
  /** Section key of the kind (`Http`, `Consul`). */
  readonly kind: string;
  /**
   * The package's `add<Kind>Health`; the suite calls it with an engine builder and `{ Dependencies: [entry] }`.
   * Typed with `never` parameters so that every probe's own option type fits.
   */
  readonly add: (builder: never, options: never) => unknown;
  /** Starts (or connects to) an upstream that is healthy. Throw when it is unavailable: the tests fail. */
  readonly healthyUpstream: () => Promise<HealthyUpstream>;
  /** Entry fields pointing at a refused loopback port. Default `{ Host: '127.0.0.1', Port: port }`. */
  readonly refusedEntry?: (port: number) => Record<string, unknown>;
  /** Entry fields pointing at a server that accepts and never answers. Default: as refusedEntry. */
  readonly blackHoleEntry?: (port: number) => Record<string, unknown>;
  /** Runs of the leak test (default 200). */
  readonly runs?: number;
}

interface Harness {
  readonly engine: ReturnType<ReturnType<typeof createTestEngineBuilder>['builder']['build']>;
  readonly logger: CaptureLogger;
  readonly contributors: DependencyHealthContributor[];
  entry(): DependencyHealthEntry;
}

const timeoutMarginMs = 1500;

function harness(options: ProbeConformanceOptions, entry: Record<string, unknown>): Harness {
  const { builder, logger } = createTestEngineBuilder();
  const contributors: DependencyHealthContributor[] = [];
  // Records the contributors the probe registers (to call them directly) while the real builder gets them too.
  const recording: EngineBuilder = new Proxy(builder, {
    get(target, property) {
      if (property === 'addDependencyHealthContributor') {
        return (contributor: DependencyHealthContributor) => {
          contributors.push(contributor);
          target.addDependencyHealthContributor(contributor);
          return recording;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const add = options.add as (
    builder: EngineBuilder,
    options: { Dependencies: Array<Record<string, unknown>> },
  ) => unknown;
  add(recording, { Dependencies: [{ Id: 'conformance', ...entry }] });
  const engine = builder.build();
  return {
    engine,
    logger,
    contributors,
    entry: () => {
      const found = engine.dependencies().find((dependency) => dependency.id === 'conformance');
      if (!found) throw new Error(`add${options.kind}Health registered no dependency with Id "conformance"`);
      return found;
    },
  };
}

function everyOutput(run: Harness, results: readonly DependencyCheckResult[]): string {
  const { engine } = run;
  return [
    JSON.stringify(results),
    JSON.stringify(engine.dependencies()),
    JSON.stringify(engine.health()),
    JSON.stringify(engine.readiness()),
    JSON.stringify(engine.liveness()),
    JSON.stringify(engine.status()),
    JSON.stringify(engine.diagnostics(['/health/ready'])),
    JSON.stringify(engine.snapshot()),
    JSON.stringify(engine.runtimeStory()),
    run.logger.text(),
  ].join('\n');
}

/**
 * The probe conformance suite (jest `describe`/`it`): run it from a probe package's tests. With the real
 * engine and real sockets it checks: a healthy upstream is Healthy; a refused connection is Unhealthy with
 * an actionable error; an upstream that accepts and never answers is Unhealthy, timed out, within
 * TimeoutSeconds (1) plus 1.5 s, and its connection is closed; a Required failure makes readiness
 * Unhealthy and an optional one Degraded; many runs leave no socket, timer or handle behind; the
 * upstream's secrets appear in no result, report, document or log record.
 */
export function describeProbeConformance(options: ProbeConformanceOptions): void {
  const refusedEntry = options.refusedEntry ?? ((port: number) => ({ Host: '127.0.0.1', Port: port }));
  const blackHoleEntry = options.blackHoleEntry ?? refusedEntry;
  const runs = options.runs ?? 200;

  describe(`${options.kind} probe conformance`, () => {
    it('reports a healthy upstream as Healthy and readiness as Healthy', async () => {
      const upstream = await options.healthyUpstream();
      const run = harness(options, { TimeoutSeconds: 5, ...upstream.entry });
      try {
        await run.engine.start();
        const entry = run.entry();
        expect({ status: entry.status, error: entry.error }).toEqual({ status: 'Healthy', error: null });
        expect(entry.kind).toBe(options.kind);
        expect(run.engine.readiness().status).toBe('Healthy');
      } finally {
        await run.engine.stop();
        await upstream.close();
      }
    });

    it('reports a refused connection as Unhealthy with an error a user can act on', async () => {
      const port = await refusedPort();
      const run = harness(options, { TimeoutSeconds: 5, ...refusedEntry(port) });
      try {
        await run.engine.start();
        const entry = run.entry();
        expect(entry.status).toBe('Unhealthy');
        expect(entry.timedOut).toBe(false);
        expect(entry.error?.code).toMatch(/\S/);
        expect(entry.error?.message).toMatch(/refused|ECONNREFUSED/i);
        expect(entry.error?.message).toMatch(/check|start|running|configur/i);
      } finally {
        await run.engine.stop();
      }
    });

    it('reports an upstream that accepts and never answers as Unhealthy (timed out) within TimeoutSeconds plus a margin, and closes the connection', async () => {
      const hole = await blackHoleServer();
      const run = harness(options, { TimeoutSeconds: 1, ...blackHoleEntry(hole.port) });
      try {
        const startedAt = performance.now();
        await run.engine.refreshDependencies();
        const elapsedMs = performance.now() - startedAt;
        const entry = run.entry();
        expect(entry.status).toBe('Unhealthy');
        expect(entry.timedOut).toBe(true);
        expect(elapsedMs).toBeLessThan(1000 + timeoutMarginMs);
        expect(hole.acceptedConnections).toBeGreaterThan(0);
        const deadline = performance.now() + 2000;
        while (hole.openConnections > 0 && performance.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(hole.openConnections).toBe(0);
      } finally {
        await run.engine.stop();
        await hole.close();
      }
    });

    it.each([
      [true, 'Unhealthy'],
      [false, 'Degraded'],
    ])('with Required %s, a failing dependency makes readiness %s', async (required, expected) => {
      const port = await refusedPort();
      const run = harness(options, { TimeoutSeconds: 5, Required: required, ...refusedEntry(port) });
      try {
        await run.engine.start();
        expect(run.entry().status).toBe('Unhealthy');
        expect(run.entry().required).toBe(required);
        expect(run.engine.readiness().status).toBe(expected);
      } finally {
        await run.engine.stop();
      }
    });

    it(`leaves no socket, timer or handle behind after ${runs} healthy and ${runs} refused runs`, async () => {
      const upstream = await options.healthyUpstream();
      const port = await refusedPort();
      try {
        const before = countActiveResources();
        const healthy = harness(options, { TimeoutSeconds: 5, ...upstream.entry });
        const refused = harness(options, { TimeoutSeconds: 5, ...refusedEntry(port) });
        await healthy.engine.start();
        await refused.engine.start();
        for (let index = 0; index < runs; index++) {
          await Promise.all([healthy.engine.refreshDependencies(), refused.engine.refreshDependencies()]);
        }
        expect(healthy.entry().status).toBe('Healthy');
        expect(refused.entry().status).toBe('Unhealthy');
        await healthy.engine.stop();
        await refused.engine.stop();
        const leftover = await waitForResourcesAtMost(before, 3000);
        expect(leftover).toEqual({});
      } finally {
        await upstream.close();
      }
      // A fixed amount of work (2 x runs checks) whose duration follows the machine's load: packages run side
      // by side, so the limit leaves room for a busy machine instead of jest's default.
    }, 180_000);

    it('keeps the configured secrets out of every result, report, document and log record', async () => {
      const upstream = await options.healthyUpstream();
      const port = await refusedPort();
      const healthy = harness(options, { TimeoutSeconds: 5, ...upstream.entry });
      const failing = harness(options, { TimeoutSeconds: 5, ...upstream.entry, ...refusedEntry(port) });
      try {
        await healthy.engine.start();
        await failing.engine.start();
        const results: DependencyCheckResult[] = [];
        for (const contributor of [...healthy.contributors, ...failing.contributors]) {
          results.push(await contributor.check(new AbortController().signal));
        }
        expect(healthy.entry().status).toBe('Healthy');
        expect(failing.entry().status).toBe('Unhealthy');
        const text = `${everyOutput(healthy, results)}\n${everyOutput(failing, [])}`;
        for (const secret of upstream.secrets ?? []) {
          expect(text.includes(secret) ? `secret ${secret.slice(0, 1)}*** found in output` : 'absent').toBe(
            'absent',
          );
          expect(
            text.includes(encodeURIComponent(secret)) ? 'URL-encoded secret found in output' : 'absent',
          ).toBe('absent');
        }
      } finally {
        await healthy.engine.stop();
        await failing.engine.stop();
        await upstream.close();
      }
    });
  });
}
