import type { EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import type { CdcConformanceHost } from '@corekit/testing';
import { addData, dataRegistrationKey } from '../add-data';
import type { DataRuntimeOptionsInput } from '../data-options';

/**
 * An engine with the data pack on the File store in `directory`, one capture `orders` declared by `declare`,
 * as the CDC provider conformance suite drives it (passes only when triggered).
 */
export async function startConformanceHost(options: {
  readonly directory: string;
  readonly data: DataRuntimeOptionsInput;
  readonly pump: 'capture' | 'change-stream';
  readonly capture: Record<string, unknown>;
  readonly setup?: (builder: EngineBuilder) => void;
  /** The pump's reporter id: a child process's, to take over its lease at once. */
  readonly reporterId?: string;
}): Promise<CdcConformanceHost> {
  const builder = createEngineBuilder({
    environment: {},
    logger: { log: () => undefined },
    configuration: { Engine: { Stores: { Provider: 'File', Directory: options.directory } } },
  });
  builder.addModule({ id: 'orders', version: '1.0.0' });
  builder.addCatalogEntries('cdc-captures', 'orders', [
    {
      id: 'orders',
      displayName: 'Orders',
      sourceModuleId: 'orders',
      sourceId: 'test-db',
      eventFormat: 'json',
      ...options.capture,
    },
  ]);
  options.setup?.(builder);
  addData(builder, options.data, options.reporterId ? { pumpReporterId: options.reporterId } : {});
  const engine = builder.build();
  await engine.start();
  const data = engine.resolve(dataRegistrationKey)!;
  const job = options.pump === 'capture' ? data.pumpJob! : data.changeStreamJob!;
  return {
    async pass() {
      for (;;) {
        const outcome = await job.trigger();
        if (outcome.status === 'completed') return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    state: async () => data.runtime.states().find((state) => state.cdcCaptureId === 'orders')!,
    async acceptGap() {
      const outcome = await engine.operations.invoke('data.cdc-capture-accept-gap', {
        params: { cdcCaptureId: 'orders' },
        body: {},
      });
      if (outcome.status !== 200) throw new Error(`accept-gap answered ${outcome.status}`);
    },
    stop: () => engine.stop(),
  };
}
