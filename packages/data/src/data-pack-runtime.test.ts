import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { DataPackRuntime } from './data-pack-runtime';
import { dataRuntimeOptionsSchema, type DataRuntimeOptionsInput } from './data-options';
import { addDataPumps, capturePumpSpecification, changeStreamPumpSpecification } from './data-pumps';
import { capturePumpId, changeStreamPumpId } from './shipped-runtimes';
import { capture, declareCaptures, testClock } from './test-support/data-fixture';

function packOn(options: DataRuntimeOptionsInput) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({ environment: {}, logger });
  const settings = builder.configuration.bind('Engine:Data', dataRuntimeOptionsSchema, options);
  const pack = new DataPackRuntime(builder, settings, testClock().now);
  return { builder, settings, pack, logger };
}

describe('DataPackRuntime', () => {
  it('lists the execution runtimes of the shipped pumps it runs', () => {
    const none = packOn({ CapturePump: { Enabled: false }, ChangeStreamPump: { Enabled: false } });
    expect(none.pack.runtimes).toEqual([]);
    const both = packOn({ CapturePump: { Enabled: true }, ChangeStreamPump: { Enabled: true } });
    expect(both.pack.runtimes.map((runtime) => runtime.id)).toHaveLength(2);
  });

  it('answers no job and no restarts before its pumps are registered, then the registered pumps', () => {
    const { builder, settings, pack } = packOn({
      CapturePump: { Enabled: true },
      ChangeStreamPump: { Enabled: false },
    });
    expect(pack.jobOf(capturePumpId)).toBeNull();
    expect(pack.restartsOf('postgresql')).toBeNull();
    pack.usePumps(addDataPumps(builder, settings, {}, pack));
    expect(pack.jobOf(capturePumpId)?.id).toBe(capturePumpId);
    expect(pack.jobOf(changeStreamPumpId)).toBeNull();
  });

  it('binds the declared captures at build and records the bindings when the engine starts', async () => {
    const { builder, pack, logger } = packOn({
      CapturePump: { Enabled: false },
      ChangeStreamPump: { Enabled: false },
    });
    declareCaptures(builder, [capture('orders')]);
    builder.addLifecycleHooks(pack.lifecycleHooks());
    const engine = builder.build();
    expect(pack.runtime.allCaptures().map((entry) => entry.id)).toEqual(['orders']);
    await engine.start();
    try {
      expect(pack.executionBindings().bindingOf('orders')).toBe(pack.runtime.bindingOf('orders'));
      expect(
        logger.records.some((record) => String(record.message).startsWith('Data pack started: 1 capture(s)')),
      ).toBe(true);
    } finally {
      await engine.stop();
    }
  });
});

describe('pump specifications', () => {
  it('name each pump after the process unless a reporter id is given, and renew leases as asked', () => {
    const settings = dataRuntimeOptionsSchema.parse({});
    expect(capturePumpSpecification(settings, {}).reporterId).toMatch(new RegExp(`^${capturePumpId}@`));
    const given = changeStreamPumpSpecification(settings, {
      pumpReporterId: 'r-1',
      pumpLeaseRenewMilliseconds: 50,
    });
    expect(given).toMatchObject({ id: changeStreamPumpId, reporterId: 'r-1', leaseRenewMs: 50 });
    expect('leaseRenewMs' in capturePumpSpecification(settings, {})).toBe(false);
  });
});
