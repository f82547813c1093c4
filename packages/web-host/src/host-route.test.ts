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
    for (const order of [paths, [...paths].reverse()]) {
      const sorted = order
        .map(route)
        .sort(bySpecificity)
        .map((entry) => entry.path);
      const before = (first: string, second: string) =>
        expect(sorted.indexOf(first)).toBeLessThan(sorted.indexOf(second));
      before('/api/orders/status', '/api/orders/:orderId');
      before('/engine/cdc-captures/runtime', '/engine/cdc-captures/:cdcCaptureId');
      before('/engine/cdc-captures/runtime/:cdcCaptureId', '/engine/cdc-captures/:cdcCaptureId');
      before('/api/orders/status', '/api/:tenant/orders');
    }
  });
});
