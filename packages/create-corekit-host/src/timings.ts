import { durationSeconds, numberAt, valueAt } from './host-configuration';

/** One input read from the host's configuration, with the key it came from. */
export interface TimingInput {
  readonly symbol: string;
  readonly value: number;
  readonly source: string;
}

/** One computed deployment number, with its formula and the reason for it. */
export interface ComputedNumber {
  readonly name: string;
  readonly value: number;
  readonly formula: string;
  readonly why: string;
}

/**
 * Every deployment number, derived from the engine configuration (engine.json with engine.production.json).
 * The engine defaults apply to absent keys. What this cannot know: how long the host's own modules take to
 * start and stop beyond the dependency checks; a module that needs longer needs a larger
 * StartupReadinessDelay or ShutdownLivenessGracePeriod, which then flow into every artifact.
 */
export interface DeploymentTimings {
  readonly inputs: readonly TimingInput[];
  readonly numbers: readonly ComputedNumber[];
  /** Look a number up by name (throws on an unknown name). */
  get(name: string): number;
}

const dependencyHealth = 'Engine:Observability:DependencyHealth';
const defaultKeys: readonly string[] = ['refreshintervalseconds', 'timeoutseconds', 'staleafterintervals'];

function probeInputs(configuration: Record<string, unknown>): { timeout: TimingInput; refresh: TimingInput } {
  const defaultTimeout = numberAt(configuration, `${dependencyHealth}:TimeoutSeconds`, 5);
  const defaultRefresh = numberAt(configuration, `${dependencyHealth}:RefreshIntervalSeconds`, 30);
  let timeout: TimingInput = {
    symbol: 'T',
    value: defaultTimeout,
    source: `${dependencyHealth}:TimeoutSeconds`,
  };
  let refresh: TimingInput = {
    symbol: 'R',
    value: defaultRefresh,
    source: `${dependencyHealth}:RefreshIntervalSeconds`,
  };
  let sawDependency = false;
  const sections = valueAt(configuration, dependencyHealth);
  for (const [kind, section] of Object.entries((sections ?? {}) as Record<string, unknown>)) {
    if (defaultKeys.includes(kind.toLowerCase()) || !section || typeof section !== 'object') continue;
    const dependencies = valueAt(section, 'Dependencies');
    const entries = Array.isArray(dependencies) ? dependencies : Object.values(dependencies ?? {});
    if (entries.length === 0) continue;
    const sectionPath = `${dependencyHealth}:${kind}`;
    const interval = numberAt(section, 'RefreshIntervalSeconds', 30);
    if (!sawDependency || interval > refresh.value)
      refresh = { symbol: 'R', value: interval, source: `${sectionPath}:RefreshIntervalSeconds` };
    entries.forEach((entry, index) => {
      const value = numberAt(entry, 'TimeoutSeconds', 5);
      if (!sawDependency || value > timeout.value)
        timeout = { symbol: 'T', value, source: `${sectionPath}:Dependencies:${index}:TimeoutSeconds` };
      sawDependency = true;
    });
  }
  return {
    timeout: { ...timeout, value: Math.ceil(timeout.value) },
    refresh: { ...refresh, value: Math.ceil(refresh.value) },
  };
}

/** Computes every deployment number from the configuration. */
export function computeTimings(configuration: Record<string, unknown>): DeploymentTimings {
  const S = durationSeconds(configuration, 'Engine:FailurePolicy:StartupReadinessDelay', 0);
  const G = durationSeconds(configuration, 'Engine:FailurePolicy:ShutdownLivenessGracePeriod', 30);
  const D = durationSeconds(configuration, 'Engine:Web:DrainTimeout', 30);
  const B = durationSeconds(configuration, 'Engine:FailurePolicy:ManualRestartBackoff', 10);
  const H = durationSeconds(configuration, 'Engine:Shutdown:StoppingHooksTimeout', 10);
  const J = durationSeconds(configuration, 'Engine:Shutdown:JobStopTimeout', 10);
  const C = durationSeconds(configuration, 'Engine:Shutdown:StoreCloseTimeout', 5);
  const N = Math.ceil(numberAt(configuration, `${dependencyHealth}:StaleAfterIntervals`, 3));
  const { timeout, refresh } = probeInputs(configuration);
  const T = timeout.value;
  const R = refresh.value;
  const inputs: TimingInput[] = [
    { symbol: 'S', value: S, source: 'Engine:FailurePolicy:StartupReadinessDelay' },
    { symbol: 'G', value: G, source: 'Engine:FailurePolicy:ShutdownLivenessGracePeriod' },
    { symbol: 'D', value: D, source: 'Engine:Web:DrainTimeout' },
    timeout,
    refresh,
    { symbol: 'N', value: N, source: `${dependencyHealth}:StaleAfterIntervals` },
    { symbol: 'B', value: B, source: 'Engine:FailurePolicy:ManualRestartBackoff' },
    { symbol: 'H', value: H, source: 'Engine:Shutdown:StoppingHooksTimeout' },
    { symbol: 'J', value: J, source: 'Engine:Shutdown:JobStopTimeout' },
    { symbol: 'C', value: C, source: 'Engine:Shutdown:StoreCloseTimeout' },
  ];
  const healthTimeout = 1;
  const startupBudget = T + S + R + T;
  const stopBudget = Math.max(H + D + J + C, G) + T;
  const preStop = T * 1 + healthTimeout;
  const numbers: ComputedNumber[] = [
    {
      name: 'health.timeoutSeconds',
      value: healthTimeout,
      formula: '1 (the smallest probe timeout platforms accept)',
      why: 'the health routes answer from cached results and never run a dependency check, so they answer at once',
    },
    {
      name: 'startup.budgetSeconds',
      value: startupBudget,
      formula: `T + S + R + T = ${T} + ${S} + ${R} + ${T}`,
      why: 'the longest a healthy host takes to its first ready answer: first checks (at most T), the readiness delay S, and a failed first check retried after R (at most T again)',
    },
    {
      name: 'readiness.initialDelaySeconds',
      value: S,
      formula: `S = ${S}`,
      why: 'readiness cannot be 200 before StartupReadinessDelay has passed; probing earlier only records failures',
    },
    {
      name: 'readiness.periodSeconds',
      value: Math.max(1, T),
      formula: `max(1, T) = ${Math.max(1, T)}`,
      why: 'a dependency result changes at most once per check, and a check ends within T of starting: probing every T sees each change within T',
    },
    {
      name: 'readiness.failureThreshold',
      value: 1,
      formula: '1',
      why: 'the engine already judged: a 503 from /health/ready (a required dependency down, the shutdown drain) means take the instance out now',
    },
    {
      name: 'liveness.periodSeconds',
      value: R,
      formula: `R = ${R}`,
      why: 'liveness never follows a dependency; it changes when the engine failed or stopped, or a drain outlived G: the refresh cadence is often enough',
    },
    {
      name: 'liveness.failureThreshold',
      value: N,
      formula: `N = ${N}`,
      why: 'restart after as many missed answers as the engine tolerates missed refreshes before it calls a result stale',
    },
    {
      name: 'preStop.sleepSeconds',
      value: preStop,
      formula: `readiness.periodSeconds × readiness.failureThreshold + health.timeoutSeconds = ${T} × 1 + ${healthTimeout}`,
      why: 'the endpoint is removed and anything routing on readiness probes once more before SIGTERM makes the server refuse new work',
    },
    {
      name: 'shutdown.stopSeconds',
      value: stopBudget,
      formula: `max(H + D + J + C, G) + T = max(${H} + ${D} + ${J} + ${C}, ${G}) + ${T}`,
      why: "after SIGTERM the stop takes, one after the other, at most: the packs' stopping hooks H, the request drain D, the running jobs J and the store close C; liveness stays up for the grace period G meanwhile; T covers the dependency checks engine.stop() aborts and the module stops",
    },
    {
      name: 'kubernetes.terminationGracePeriodSeconds',
      value: preStop + stopBudget,
      formula: `preStop.sleepSeconds + shutdown.stopSeconds = ${preStop} + ${stopBudget}`,
      why: 'Kubernetes counts the preStop sleep inside the grace period, then SIGKILLs: the whole sequence must fit',
    },
    {
      name: 'restart.delaySeconds',
      value: Math.max(1, B),
      formula: `max(1, B) = ${Math.max(1, B)}`,
      why: 'a service manager restarting a failed process waits as long as the engine asks before a restart after a failed start',
    },
  ];
  return {
    inputs,
    numbers,
    get(name) {
      const found = numbers.find((number) => number.name === name);
      if (!found) throw new Error(`no computed number ${name}`);
      return found.value;
    },
  };
}
