import { cellMaterializationKey } from '@corekit/abstractions';
// The engine's own sample set (one realistic entry or more in every built-in catalog), shared with its tests.
import { addSampleCatalogs } from '../../engine-core/src/testing-support/sample-catalogs';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

const catalogs: Array<[path: string, snapshotField: string, knownId: string]> = [
  ['/engine/execution-graphs', 'executionGraphs', 'order-flow'],
  ['/engine/hosted-executions', 'hostedExecutions', 'order-pump'],
  ['/engine/data-products', 'dataProducts', 'orders-daily'],
  ['/engine/projections', 'projections', 'order-summary'],
  ['/engine/outboxes', 'outboxes', 'orders-outbox'],
  ['/engine/inboxes', 'inboxes', 'billing-inbox'],
  ['/engine/cdc-captures', 'cdcCaptures', 'orders-cdc'],
  ['/engine/authorization-policies', 'authorizationPolicies', 'billing-admin'],
  ['/engine/cells', 'cellBoundaries', 'eu-1'],
  ['/engine/cell-routes', 'cellRoutes', 'eu-tenants'],
  ['/engine/cell-health-isolations', 'cellHealthIsolations', 'eu-db-isolation'],
  ['/engine/cell-traffic-automations', 'cellTrafficAutomations', 'eu-failover'],
];

describe('built-in catalog routes (spec 4.2-4.4) over real HTTP', () => {
  it.each(catalogs)(
    '%s answers 200 with the list, 200 by id and 404 problem details for an unknown id',
    async (path, snapshotField, knownId) => {
      const test = await startTestHost({ setup: (builder) => addSampleCatalogs(builder) });
      const list = await test.request(path);
      expect(list.status).toBe(200);
      expect(list.body.map((entry: { id: string }) => entry.id)).toContain(knownId);
      const one = await test.request(`${path}/${knownId}`);
      expect([one.status, one.body.id]).toEqual([200, knownId]);
      const missing = await test.request(`${path}/no-such-entry`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toContain('application/problem+json');
      const snapshot = await test.request('/engine/snapshot');
      expect(snapshot.body[snapshotField].map((entry: { id: string }) => entry.id)).toContain(knownId);
    },
  );

  it('narrows traffic automations by provider and by edge node, and routes show the materialization posture', async () => {
    const test = await startTestHost({ setup: (builder) => addSampleCatalogs(builder) });
    const byProvider = await test.request('/engine/cell-traffic-automations/providers/dns-provider');
    expect(byProvider.body.map((entry: { id: string }) => entry.id)).toEqual(['eu-failover', 'us-drain']);
    const byEdge = await test.request('/engine/cell-traffic-automations/edge-nodes/edge-b');
    expect(byEdge.body.map((entry: { id: string }) => entry.id)).toEqual(['eu-failover']);
    expect((await test.request('/engine/cell-traffic-automations/edge-nodes/nowhere')).body).toEqual([]);

    const reporter = test.host.engine.resolve(cellMaterializationKey)!;
    reporter.reportProviderMaterialization('eu-failover', {
      materializerId: 'dns',
      state: 'applied',
      metadata: {},
    });
    reporter.reportEdgeMaterialization('eu-failover', {
      materializerId: 'edge',
      state: 'failed',
      error: 'edge-b refused',
      metadata: {},
    });
    const route = await test.request('/engine/cell-routes/eu-tenants');
    expect(route.body).toMatchObject({
      materializationState: 'failed',
      materializationError: 'edge-b refused',
    });
  });

  it('narrows CDC captures by module, provider, outbox, source and resource', async () => {
    const test = await startTestHost({ setup: (builder) => addSampleCatalogs(builder) });
    for (const path of [
      'modules/orders',
      'providers/postgres',
      'outboxes/orders-outbox',
      'sources/orders-db',
      'resources/public.orders',
    ]) {
      const answer = await test.request(`/engine/cdc-captures/${path}`);
      expect([path, answer.status, answer.body.map((entry: { id: string }) => entry.id)]).toEqual([
        path,
        200,
        ['orders-cdc'],
      ]);
    }
  });

  it('lists the cell technology surfaces', async () => {
    const test = await startTestHost({ setup: (builder) => addSampleCatalogs(builder) });
    const surfaces = await test.request('/engine/technology-surfaces');
    const kinds = new Set(surfaces.body.map((surface: { kind: string }) => surface.kind));
    for (const kind of [
      'cell-boundaries',
      'cell-routes',
      'cell-health-isolations',
      'cell-traffic-automations',
    ])
      expect(kinds).toContain(kind);
  });
});
