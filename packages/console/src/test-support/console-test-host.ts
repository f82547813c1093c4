import type { EngineBuilder } from '@corekit/abstractions';
import type { CaptureLogger } from '@corekit/testing/capture-logger';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createWebHost, type WebHost, type WebHostOptions } from '@corekit/web-host';
import { addConsole, type AddConsoleOptions } from '../add-console';

export interface ConsoleTestHost {
  readonly host: WebHost;
  readonly base: string;
  readonly logger: CaptureLogger;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface ConsoleTestHostOptions {
  readonly configuration?: Record<string, unknown>;
  readonly environment?: Record<string, string | undefined>;
  readonly authorize?: WebHostOptions['authorize'];
  readonly console?: AddConsoleOptions;
  readonly setup?: (builder: EngineBuilder) => void;
}

const open: ConsoleTestHost[] = [];

/** A real web host on port 0 with the console registered; closed by `closeConsoleHosts` after each test. */
export async function startConsoleHost(options: ConsoleTestHostOptions = {}): Promise<ConsoleTestHost> {
  const { builder, logger } = createTestEngineBuilder({
    configuration: options.configuration,
    environment: options.environment,
  });
  options.setup?.(builder);
  addConsole(builder, options.console);
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: options.environment ?? {},
    ...(options.authorize ? { authorize: options.authorize } : {}),
  });
  const { url } = await host.listen();
  let closed = false;
  const test: ConsoleTestHost = {
    host,
    base: url,
    logger,
    get: (path, headers = {}) => fetch(`${url}${path}`, { headers }),
    close: async () => {
      if (closed) return;
      closed = true;
      await host.close();
    },
  };
  open.push(test);
  return test;
}

export async function closeConsoleHosts(): Promise<void> {
  await Promise.all(open.splice(0).map((test) => test.close()));
}
