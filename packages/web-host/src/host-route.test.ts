import { bySpecificity, type HostRoute } from './host-route';

const route = (path: string): HostRoute => ({
  method: 'get',
  path,
  summary: path,
  responses: {},
  handler: () => undefined,
});

describe('bySpecificity', () => {
  it('puts a literal segment before a parameter at the same position, whatever the registration order', () => {
    const paths = [
      '/api/orders/:orderId',
      '/api/orders',
      '/engine/cdc-captures/:cdcCaptureId',
      '/api/:tenant/orders',
      '/engine/cdc-captures/runtime',
      '/api/orders/status',
      '/engine/cdc-captures/runtime/:cdcCaptureId',
    ];
    const sorted = paths
      .map(route)
      .sort(bySpecificity)
      .map((entry) => entry.path);
    expect(sorted.indexOf('/api/orders/status')).toBeLessThan(sorted.indexOf('/api/orders/:orderId'));
    expect(sorted.indexOf('/engine/cdc-captures/runtime')).toBeLessThan(
      sorted.indexOf('/engine/cdc-captures/:cdcCaptureId'),
    );
    expect(sorted.indexOf('/api/orders/status')).toBeLessThan(sorted.indexOf('/api/:tenant/orders'));
    // A total order: sorting any permutation gives the same answer.
    const reversed = [...paths]
      .reverse()
      .map(route)
      .sort(bySpecificity)
      .map((entry) => entry.path);
    expect(reversed).toEqual(sorted);
  });
});
