import { createMemoryLogger } from '@corekit/engine-core';
import type { WebHost } from '@corekit/web-host';
import { createSampleHost } from '../sample-host';
import { testDataDirectory } from './test-data-directory';

/**
 * The starter of the sample host for one test file: each start is on port 0, leaves the process's signals
 * alone, logs to a memory logger and keeps its stores in the file's own data folder (testDataDirectory()).
 * The host a test started last is closed after it; `close()` closes one earlier.
 */
export function sampleHostStarter() {
  const dataDirectory = testDataDirectory();
  let started: WebHost | undefined;
  afterEach(async () => {
    await started?.close();
    started = undefined;
  });
  return async function startSample(
    environment: Record<string, string> = {},
    configuration?: Record<string, unknown>,
  ) {
    const logger = createMemoryLogger();
    const sample = await createSampleHost({
      port: 0,
      handleSignals: false,
      dataDirectory,
      environment,
      logger,
      configuration,
    });
    started = sample.host;
    const { port } = await sample.host.listen();
    return {
      ...sample,
      logger,
      base: `http://127.0.0.1:${port}`,
      /** Closes this host now (not again after the test). */
      async close() {
        if (started === sample.host) started = undefined;
        await sample.host.close();
      },
    };
  };
}
