import { cellMaterializationKey, CoreError, type HostedService } from '@corekit/abstractions';
import { testBuilder } from './testing-support/engine-fixtures';
import { addSampleCatalogs } from './testing-support/sample-catalogs';

function buildError(configure: (builder: ReturnType<typeof testBuilder>['builder']) => void): CoreError {
  const { builder } = testBuilder();
  addSampleCatalogs(builder);
  configure(builder);
  try {
    builder.build();
  } catch (error) {
    return error as CoreError;
  }
  throw new Error('expected the build to fail');
}

function problemsOf(error: CoreError) {
  return (
    error.details.problems as Array<{ catalog: string; entryId: string; field: string; value: unknown }>
  ).map(
    (problem) => `${problem.catalog}|${problem.entryId}|${problem.field}|${JSON.stringify(problem.value)}`,
  );
}

describe('runtime catalogs: build-time validation', () => {
  it('publishes every catalog of a clean build, under its spec snapshot field', () => {
    const { builder } = testBuilder();
    addSampleCatalogs(builder);
    const snapshot = builder.build().snapshot();
    for (const field of [
      'executionGraphs',
      'hostedExecutions',
      'dataProducts',
      'projections',
      'outboxes',
      'inboxes',
      'cdcCaptures',
      'authorizationPolicies',
      'cellBoundaries',
      'cellRoutes',
      'cellHealthIsolations',
      'cellTrafficAutomations',
    ]) {
      expect(Array.isArray(snapshot[field])).toBe(true);
      expect((snapshot[field] as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it.each([
    [
      'unknown source module',
      (b: any) =>
        b.addCatalogEntries('data-products', 'orders', [
          { id: 'x', displayName: 'X', sourceModuleId: 'ghost', domainId: 'd', contractId: 'c', mode: 'm' },
        ]),
      'data-products|x|sourceModuleId|"ghost"',
    ],
    [
      'unknown graph id',
      (b: any) =>
        b.addCatalogEntries('hosted-executions', 'orders', [
          { id: 'h', displayName: 'H', sourceModuleId: 'orders', kind: 'k', executionGraphId: 'nope' },
        ]),
      'hosted-executions|h|executionGraphId|"nope"',
    ],
    [
      'unknown node module',
      (b: any) =>
        b.addCatalogEntries('execution-graphs', 'orders', [
          {
            id: 'g',
            displayName: 'G',
            sourceModuleId: 'orders',
            entryNodeId: 'a',
            nodes: [{ id: 'a', moduleId: 'ghost', capabilityKey: 'x' }],
          },
        ]),
      'execution-graphs|g|nodes.0.moduleId|"ghost"',
    ],
    [
      'unknown capability',
      (b: any) =>
        b.addCatalogEntries('execution-graphs', 'orders', [
          {
            id: 'g',
            displayName: 'G',
            sourceModuleId: 'orders',
            entryNodeId: 'a',
            nodes: [{ id: 'a', moduleId: 'orders', capabilityKey: 'orders.teleport' }],
          },
        ]),
      'execution-graphs|g|nodes.0.capabilityKey|"orders.teleport"',
    ],
    [
      'unknown entry node',
      (b: any) =>
        b.addCatalogEntries('execution-graphs', 'orders', [
          {
            id: 'g',
            displayName: 'G',
            sourceModuleId: 'orders',
            entryNodeId: 'z',
            nodes: [{ id: 'a', moduleId: 'orders', capabilityKey: 'orders.accept' }],
          },
        ]),
      'execution-graphs|g|entryNodeId|"z"',
    ],
    [
      'edge to an unknown node',
      (b: any) =>
        b.addCatalogEntries('execution-graphs', 'orders', [
          {
            id: 'g',
            displayName: 'G',
            sourceModuleId: 'orders',
            entryNodeId: 'a',
            nodes: [{ id: 'a', moduleId: 'orders', capabilityKey: 'orders.accept' }],
            edges: [{ from: 'a', to: 'b' }],
          },
        ]),
      'execution-graphs|g|edges.0.to|"b"',
    ],
    [
      'unknown outbox',
      (b: any) =>
        b.addCatalogEntries('cdc-captures', 'orders', [
          {
            id: 'c',
            displayName: 'C',
            sourceModuleId: 'orders',
            provider: 'p',
            sourceId: 's',
            outboxId: 'missing-outbox',
            mode: 'm',
            eventFormat: 'e',
          },
        ]),
      'cdc-captures|c|outboxId|"missing-outbox"',
    ],
    [
      'duplicate id',
      (b: any) =>
        b.addCatalogEntries('outboxes', 'orders', [
          { id: 'orders-outbox', displayName: 'Again', sourceModuleId: 'orders', provider: 'p', mode: 'm' },
        ]),
      'outboxes|orders-outbox|id|"orders-outbox"',
    ],
    [
      'unknown cell',
      (b: any) =>
        b.addCatalogEntries('cell-routes', 'orders', [
          { id: 'r', displayName: 'R', sourceModuleId: 'orders', cellId: 'mars-1' },
        ]),
      'cell-routes|r|cellId|"mars-1"',
    ],
    [
      'automation on a route of another cell',
      (b: any) =>
        b.addCatalogEntries('cell-traffic-automations', 'orders', [
          {
            id: 'a',
            displayName: 'A',
            sourceModuleId: 'orders',
            cellId: 'us-1',
            routeId: 'eu-tenants',
            trigger: 't',
            action: 'a',
          },
        ]),
      'cell-traffic-automations|a|routeId|"eu-tenants"',
    ],
    [
      'provider-managed automation without a provider',
      (b: any) =>
        b.addCatalogEntries('cell-traffic-automations', 'orders', [
          {
            id: 'a',
            displayName: 'A',
            sourceModuleId: 'orders',
            cellId: 'us-1',
            trigger: 't',
            action: 'a',
            materializationMode: 'provider-managed',
          },
        ]),
      'cell-traffic-automations|a|providerId|null',
    ],
    [
      'invalid policy mode',
      (b: any) =>
        b.addCatalogEntries('authorization-policies', 'orders', [
          { id: 'p', displayName: 'P', modes: ['ACL'] },
        ]),
      'authorization-policies|p|modes.0|"ACL"',
    ],
  ])('fails on %s, naming catalog, entry, field and value', (_name, configure, expected) => {
    const error = buildError(configure);
    expect(error.code).toBe('CATALOG_INVALID');
    expect(problemsOf(error)).toContain(expected);
  });

  it('lists every problem in one error', () => {
    const error = buildError((b) => {
      b.addCatalogEntries('cell-routes', 'orders', [
        { id: 'r', displayName: 'R', sourceModuleId: 'orders', cellId: 'mars-1' },
      ]);
      b.addCatalogEntries('hosted-executions', 'orders', [
        { id: 'h', displayName: 'H', sourceModuleId: 'orders', kind: 'k', executionGraphId: 'nope' },
      ]);
    });
    expect(problemsOf(error)).toHaveLength(2);
    expect(error.message).toContain('cell-routes "r" cellId: unknown cell "mars-1"');
    expect(error.message).toContain('hosted-executions "h" executionGraphId: unknown execution graph "nope"');
  });

  it('stamps metadata.sourceModuleId of authorization policies with the contributing module', () => {
    const { builder } = testBuilder();
    addSampleCatalogs(builder);
    const policy = builder.build().catalog('authorization-policies')!.find('billing-admin') as {
      metadata: Record<string, unknown>;
    };
    expect(policy.metadata.sourceModuleId).toBe('billing');
  });

  it('stamps metadata.contributorModuleId on a CDC capture a module contributes for another, never on its own', () => {
    const { builder } = testBuilder();
    addSampleCatalogs(builder);
    builder.addCatalogEntries('cdc-captures', 'billing', [
      {
        id: 'orders-refunds-cdc',
        displayName: 'Order refunds CDC (contributed by billing)',
        sourceModuleId: 'orders',
        provider: 'postgres',
        sourceId: 'orders-db',
        mode: 'logical',
        eventFormat: 'cloudevents',
        metadata: { table: 'refunds' },
      },
    ]);
    const captures = builder.build().catalog('cdc-captures')!;
    expect(captures.find('orders-refunds-cdc')).toMatchObject({
      sourceModuleId: 'orders',
      metadata: { table: 'refunds', contributorModuleId: 'billing' },
    });
    const own = captures.find('orders-cdc') as { metadata: Record<string, unknown> };
    expect(own.metadata).not.toHaveProperty('contributorModuleId');
  });
});

describe('runtime catalogs: execution lifecycle', () => {
  it('starts hosted executions that start with the host and records loaded, active and deactivated', async () => {
    const calls: string[] = [];
    const runner: HostedService = {
      id: 'order-pump',
      start: () => void calls.push('start'),
      stop: () => void calls.push('stop'),
    };
    const { builder } = testBuilder();
    addSampleCatalogs(builder, runner);
    const engine = builder.build();
    await engine.start();
    expect(calls).toEqual(['start']);
    const during = engine.runtimeStory().executions;
    expect(during.find((item) => item.id === 'order-pump')).toMatchObject({
      kind: 'hosted-execution',
      state: 'active',
    });
    expect(during.find((item) => item.id === 'nightly-report')).toMatchObject({
      state: 'loaded',
      activeAtUtc: null,
    });
    expect(during.find((item) => item.id === 'order-flow')).toMatchObject({
      kind: 'execution-graph',
      state: 'active',
    });
    await engine.stop();
    expect(calls).toEqual(['start', 'stop']);
    const timeline = engine
      .runtimeStory()
      .timeline.filter((entry) => entry.subjectId === 'order-pump')
      .map((entry) => entry.transition);
    expect(timeline).toEqual(['loaded', 'active', 'deactivated']);
    const pump = engine.runtimeStory().executions.find((item) => item.id === 'order-pump')!;
    expect(pump.deactivatedAtUtc).not.toBeNull();
  });

  it('fails startup when a hosted execution runner throws, with the failure context', async () => {
    const runner: HostedService = {
      id: 'order-pump',
      start: () => {
        throw new Error('queue unreachable');
      },
      stop: () => {},
    };
    const { builder } = testBuilder();
    addSampleCatalogs(builder, runner);
    const engine = builder.build();
    await expect(engine.start()).rejects.toThrow(/hosted-execution-start/);
    expect(engine.health().runtime.lastFailure).toMatchObject({
      phase: 'hosted-execution-start',
      message: 'queue unreachable',
    });
  });
});

describe('runtime catalogs: cell route posture', () => {
  function engineWithCells() {
    const { builder, clock } = testBuilder();
    addSampleCatalogs(builder);
    const engine = builder.build();
    const reporter = engine.resolve(cellMaterializationKey)!;
    const route = (id: string) => engine.catalog('cell-routes')!.find(id) as Record<string, any>;
    return { engine, reporter, route, clock };
  }

  it('is pending until every selected side reports, and applied only when all have applied', () => {
    const { reporter, route } = engineWithCells();
    expect(route('eu-tenants').materializationState).toBe('pending');
    reporter.reportProviderMaterialization('eu-failover', {
      materializerId: 'dns',
      state: 'applied',
      metadata: {},
    });
    expect(route('eu-tenants').materializationState).toBe('pending');
    reporter.reportEdgeMaterialization('eu-failover', {
      materializerId: 'edge-agent',
      state: 'applied',
      metadata: { targetedNodes: 'edge-a,edge-b' },
    });
    const applied = route('eu-tenants');
    expect(applied.materializationState).toBe('applied');
    expect(applied['materialization.stateBreakdown']).toEqual({
      pending: 0,
      applied: 2,
      unavailable: 0,
      failed: 0,
    });
    expect(applied['providerSelection.matchingCandidateCount']).toBe(1);
    expect(applied['edgeSelection.matchingCandidateCount']).toBe(1);
    expect(applied['selection.selectedDimensions']).toEqual(['provider', 'edge']);
  });

  it('publishes one overall posture when provider and edge disagree: the worse state wins', () => {
    const { reporter, route } = engineWithCells();
    reporter.reportProviderMaterialization('eu-failover', {
      materializerId: 'dns',
      state: 'applied',
      metadata: {},
    });
    reporter.reportEdgeMaterialization('eu-failover', {
      materializerId: 'edge-agent',
      state: 'failed',
      error: 'edge-b rejected config',
      metadata: {},
    });
    expect(route('eu-tenants')).toMatchObject({
      materializationState: 'failed',
      materializationError: 'edge-b rejected config',
    });
    reporter.reportEdgeMaterialization('eu-failover', {
      materializerId: 'edge-agent',
      state: 'unavailable',
      metadata: {},
    });
    expect(route('eu-tenants').materializationState).toBe('unavailable');
  });

  it('is unavailable when a required dimension has no automation materializing it', () => {
    const { reporter, route } = engineWithCells();
    reporter.reportProviderMaterialization('us-drain', {
      materializerId: 'dns',
      state: 'applied',
      metadata: {},
    });
    expect(route('us-tenants').materializationState).toBe('applied');
    const { builder } = testBuilder();
    addSampleCatalogs(builder);
    builder.addCatalogEntries('cell-routes', 'orders', [
      {
        id: 'us-edge',
        displayName: 'US edge',
        sourceModuleId: 'orders',
        cellId: 'us-1',
        requiredDimensions: ['edge'],
      },
    ]);
    const engine = builder.build();
    const lonely = engine.catalog('cell-routes')!.find('us-edge') as Record<string, any>;
    expect(lonely.materializationState).toBe('unavailable');
    expect(lonely.materializationError).toContain('edge');
  });

  it('shows provider and edge materialization fields on automations and narrows by provider and edge node', () => {
    const { engine, reporter } = engineWithCells();
    reporter.reportEdgeMaterialization('eu-failover', {
      materializerId: 'edge-agent',
      state: 'applied',
      metadata: { action: 'shift-traffic' },
    });
    const automations = engine.catalog('cell-traffic-automations')!;
    const eu = automations.find('eu-failover') as Record<string, unknown>;
    expect(eu).toMatchObject({
      providerMaterializationState: 'pending',
      edgeMaterializerId: 'edge-agent',
      edgeMaterializationState: 'applied',
      'edgeMaterialization.action': 'shift-traffic',
    });
    expect(automations.find('us-drain')).not.toHaveProperty('edgeMaterializationState');
    const narrowing = (segment: string) =>
      automations.definition.narrowings!.find((candidate) => candidate.segment === segment)!;
    const byEdge = automations.entries().filter((entry) => narrowing('edge-nodes').select(entry, 'edge-b'));
    expect(byEdge.map((entry: any) => entry.id)).toEqual(['eu-failover']);
    const byProvider = automations
      .entries()
      .filter((entry) => narrowing('providers').select(entry, 'dns-provider'));
    expect(byProvider).toHaveLength(2);
  });

  it('refuses reports for unknown or unmanaged automations', () => {
    const { reporter } = engineWithCells();
    expect(() =>
      reporter.reportEdgeMaterialization('us-drain', { materializerId: 'e', state: 'applied', metadata: {} }),
    ).toThrow(/not edge-managed/);
    expect(() =>
      reporter.reportProviderMaterialization('ghost', {
        materializerId: 'e',
        state: 'applied',
        metadata: {},
      }),
    ).toThrow(/No traffic automation/);
    expect(() =>
      reporter.reportProviderMaterialization('us-drain', {
        materializerId: 'e',
        state: 'done' as never,
        metadata: {},
      }),
    ).toThrow(/Invalid materialization report/);
  });

  it('projects the cell technology surfaces with their stable kinds', () => {
    const { engine } = engineWithCells();
    const kinds = new Set(engine.technologySurfaces().map((surface) => surface.kind));
    expect([...kinds].sort()).toEqual([
      'cell-boundaries',
      'cell-health-isolations',
      'cell-routes',
      'cell-traffic-automations',
    ]);
    const automation = engine
      .technologySurfaces()
      .find((surface) => surface.id === 'cell-traffic-automations/eu-failover')!;
    expect(automation.metadata).toMatchObject({
      providerId: 'dns-provider',
      edgeNodeIds: ['edge-a', 'edge-b'],
      materializationMode: 'provider-and-edge-managed',
    });
  });
});
