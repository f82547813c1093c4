import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { cdcExecutionBindingsKey } from '@corekit/abstractions';
import { addData } from './add-data';
import type { DataRuntimeOptionsInput } from './data-options';
import { capture, declareCaptures } from './test-support/data-fixture';

function build(options: DataRuntimeOptionsInput, captures: readonly unknown[]) {
  const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
  declareCaptures(builder, captures);
  const registration = addData(builder, options);
  return { engine: builder.build(), registration };
}

describe('execution binding (2.4 executionBinding)', () => {
  it('resolves authored, requested and effective runtime, ownership, topology and the selection reason', () => {
    const { registration, engine } = build(
      {
        CdcExecutionRuntimes: [
          { Id: 'debezium', Kind: 'external-managed', CdcCaptureIds: ['invoices'] },
          { Id: 'edge-runners', Kind: 'edge', EdgeNodeIds: ['edge-a', 'edge-b'] },
        ],
      },
      [
        capture('invoices', { metadata: { executionRuntimeId: 'edge-runners' } }),
        capture('shipments', { metadata: { executionRuntimeId: 'edge-runners', edgeNodeId: 'edge-b' } }),
        capture('orders', { provider: 'postgresql' }),
        capture('legacy', { provider: 'oracle' }),
      ],
    );
    const binding = (id: string) => registration.runtime.bindingOf(id);
    expect(binding('invoices')).toEqual({
      authoredExecutionRuntimeId: 'edge-runners',
      requestedExecutionRuntimeId: 'debezium',
      effectiveExecutionRuntimeId: 'debezium',
      resolvedOwnershipMode: 'external-managed',
      executionTopology: 'external-process',
      selectionReason: 'host-declared-runtime',
    });
    expect(binding('shipments')).toMatchObject({
      effectiveExecutionRuntimeId: 'edge-runners',
      resolvedOwnershipMode: 'edge-managed',
      executionTopology: 'edge',
      selectionReason: 'module-authored-runtime',
    });
    expect(binding('orders')).toMatchObject({
      authoredExecutionRuntimeId: null,
      requestedExecutionRuntimeId: null,
      effectiveExecutionRuntimeId: 'data-cdc-capture-pump',
      resolvedOwnershipMode: 'host-managed',
      executionTopology: 'shared-in-process-polling',
      selectionReason: 'provider-default-runtime',
    });
    expect(engine.resolve(cdcExecutionBindingsKey)!.effectiveRuntimeOf('invoices')).toBe('debezium');
    // The engine's own /engine/cdc-captures catalog presents the binding through the typed key.
    const published = engine.catalog('cdc-captures')!.find('orders') as { executionBinding?: unknown };
    expect(published.executionBinding).toMatchObject({
      effectiveExecutionRuntimeId: 'data-cdc-capture-pump',
    });
    expect(binding('legacy')).toMatchObject({
      effectiveExecutionRuntimeId: null,
      selectionReason: 'no-runtime-selected',
    });
  });

  it('a capture a pack contributes for another module carries contributorModuleId; sourceModuleId stays the owner', async () => {
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    declareCaptures(builder, [capture('orders')]);
    builder.addModule({ id: 'warehouse-sync', version: '1.0.0' });
    builder.addCatalogEntries('cdc-captures', 'warehouse-sync', [
      capture('stock', { metadata: { executionRuntimeId: 'debezium' } }),
    ]);
    addData(builder, { CdcExecutionRuntimes: [{ Id: 'debezium', Kind: 'external-managed' }] });
    const engine = builder.build();
    const stock = engine.catalog('cdc-captures')!.find('stock') as Record<string, any>;
    expect(stock).toMatchObject({
      sourceModuleId: 'orders',
      metadata: { executionRuntimeId: 'debezium', contributorModuleId: 'warehouse-sync' },
    });
    expect(
      (engine.catalog('cdc-captures')!.find('orders') as Record<string, any>).metadata,
    ).not.toHaveProperty('contributorModuleId');
    // The data pack's own views read the published entry: the runtime narrowing shows the contributor too.
    await engine.start();
    const outcome = await engine.operations.invoke('data.cdc-captures-by-runtime', {
      params: { executionRuntimeId: 'debezium' },
    });
    const byRuntime = outcome.body as Array<Record<string, any>>;
    expect(
      byRuntime.map((entry) => [entry.id, entry.sourceModuleId, entry.metadata.contributorModuleId]),
    ).toEqual([['stock', 'orders', 'warehouse-sync']]);
  });

  it('fails the build listing every problem: unknown runtime, two owners, undeclared edge node, edge runtime without nodes', () => {
    expect(() =>
      build(
        {
          CdcExecutionRuntimes: [
            { Id: 'a', Kind: 'external-managed', CdcCaptureIds: ['orders', 'ghost'] },
            { Id: 'b', Kind: 'provider-native', CdcCaptureIds: ['orders'] },
            { Id: 'edges', Kind: 'edge', EdgeNodeIds: ['edge-a'] },
            { Id: 'bare-edge', Kind: 'edge' },
          ],
        },
        [
          capture('orders'),
          capture('invoices', { metadata: { executionRuntimeId: 'nowhere' } }),
          capture('shipments', { metadata: { executionRuntimeId: 'edges', edgeNodeId: 'edge-z' } }),
        ],
      ),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /lists unknown capture "ghost"[\s\S]*"orders" is owned by more than one runtime: a, b[\s\S]*unknown execution runtime "nowhere"[\s\S]*edge node "edge-z"/,
        ),
      }),
    );
    try {
      build({ CdcExecutionRuntimes: [{ Id: 'bare-edge', Kind: 'edge' }] }, [capture('orders')]);
      throw new Error('expected a build failure');
    } catch (error) {
      expect((error as Error).message).toContain(
        '"bare-edge" is an edge runtime but declares no EdgeNodeIds',
      );
    }
  });

  it('refuses a runtime id declared twice, unknown option keys and a second addData call', () => {
    expect(() =>
      build({ CdcExecutionRuntimes: [{ Id: 'data-cdc-capture-pump', Kind: 'external-managed' }] }, []),
    ).toThrow(/"data-cdc-capture-pump" is declared twice/);
    expect(() => build({ EnableExternalCdcRuntimeReporting: true, Bogus: 1 } as never, [])).toThrow(/Bogus/);
    const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger() });
    addData(builder);
    expect(() => addData(builder)).toThrow(expect.objectContaining({ code: 'ALREADY_REGISTERED' }));
  });
});
