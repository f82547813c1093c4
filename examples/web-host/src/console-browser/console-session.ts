import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '@corekit/engine-core';
import { createSampleHost } from '../sample-host';

export { BrowserSession, type PageOptions, type RecordedPage } from './browser-session';

export type SampleHost = Awaited<ReturnType<typeof createSampleHost>>;

/** The sample host a browser test file shares, with its address and the folder it keeps its files in. */
export interface ConsoleSample {
  readonly sample: SampleHost;
  readonly base: string;
  readonly directory: string;
  /** Puts the fake upstreams back to `up` (each test leaves them as it found them). */
  resetUpstreams(): void;
  /** Stops the host and starts it again on the same folder and stores: a restart with the state kept. */
  restart(): Promise<ConsoleSample>;
  close(): Promise<void>;
}

export interface ConsoleSampleOptions {
  /** The folder of its files and stores (a restart passes the same one); default a new temporary folder. */
  readonly directory?: string;
  /** The host's environment (`SAMPLE_OPERATOR_TOKEN`...); default none. */
  readonly environment?: Record<string, string>;
  /** More `Engine` sections (`Alerts`...), beside the checks every second and the File stores. */
  readonly engine?: Record<string, unknown>;
}

/**
 * The sample host with checks every second (the staleness bound is then 4 s), its packs' files and the engine's
 * File stores in a folder of its own, on ports from the OS.
 */
export async function startConsoleSample(options: ConsoleSampleOptions = {}): Promise<ConsoleSample> {
  const directory = options.directory ?? mkdtempSync(path.join(os.tmpdir(), 'console-browser-'));
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    environment: options.environment ?? {},
    logger: createMemoryLogger(),
    dataDirectory: directory,
    configuration: {
      Engine: {
        Observability: { DependencyHealth: { RefreshIntervalSeconds: 1 } },
        Stores: { Provider: 'File', Directory: path.join(directory, 'engine-stores') },
        ...options.engine,
      },
    },
  });
  const { port } = await sample.host.listen();
  let closed = false;
  const stop = async () => {
    if (closed) return;
    closed = true;
    await sample.host.close();
  };
  return {
    sample,
    base: `http://127.0.0.1:${port}`,
    directory,
    resetUpstreams: () => {
      sample.upstream.state.inventory = 'up';
      sample.upstream.state.pricing = 'up';
    },
    restart: async () => {
      await stop();
      return startConsoleSample({ ...options, directory });
    },
    close: async () => {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
