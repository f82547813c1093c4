import type {
  DependencyCheckResult,
  DependencyHealthContributor,
  EngineBuilder,
} from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger, manualClock, type ManualClock } from '@corekit/engine-core';
import { createWebHost, type WebHost, type WebHostOptions } from '../index';

/** A dependency contributor whose next result the test sets. */
export interface ControlledDependency extends DependencyHealthContributor {
  result: DependencyCheckResult;
}

export function controlledDependency(
  id: string,
  required: boolean,
  result: DependencyCheckResult = { status: 'Healthy' },
): ControlledDependency {
  const dependency: ControlledDependency = {
    id,
    displayName: `Dependency ${id}`,
    kind: 'Test',
    required,
    refreshIntervalSeconds: 3600,
    timeoutSeconds: 5,
    result,
    check: async () => dependency.result,
  };
  return dependency;
}

export interface TestHost {
  readonly host: WebHost;
  readonly base: string;
  readonly clock: ManualClock;
  readonly logger: ReturnType<typeof createMemoryLogger>;
  /** GET (or another method) on the host; the body is parsed as JSON when it is JSON. */
  request(
    path: string,
    init?: RequestInit,
  ): Promise<{ status: number; headers: Headers; body: any; text: string }>;
}

const open: WebHost[] = [];

/** Builds an engine (manual clock, memory logger, no environment), wraps it in a web host and listens on port 0. */
export async function startTestHost(
  options: {
    configuration?: Record<string, unknown>;
    setup?: (builder: EngineBuilder) => void;
    host?: WebHostOptions;
    start?: boolean;
  } = {},
): Promise<TestHost> {
  const clock = manualClock();
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    configuration: options.configuration,
    environment: {},
    clock,
    logger,
    contentRoot: __dirname,
  });
  options.setup?.(builder);
  const host = createWebHost(builder, { port: 0, handleSignals: false, environment: {}, ...options.host });
  open.push(host);
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  return {
    host,
    base,
    clock,
    logger,
    async request(path, init) {
      const response = await fetch(`${base}${path}`, init);
      const text = await response.text();
      let body: unknown = undefined;
      if (/json/.test(response.headers.get('content-type') ?? '')) body = JSON.parse(text);
      return { status: response.status, headers: response.headers, body, text };
    },
  };
}

/** Closes every host started by startTestHost (call in afterEach). */
export async function closeTestHosts(): Promise<void> {
  await Promise.all(open.splice(0).map((host) => host.close()));
}
