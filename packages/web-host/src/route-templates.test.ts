import type { HostRoute } from './host-route';
import { bySpecificity } from './host-route';
import { routeTemplates } from './route-templates';

const route = (method: HostRoute['method'], path: string): HostRoute => ({
  method,
  path,
  summary: path,
  responses: {},
  handler: () => undefined,
});

describe('routeTemplates', () => {
  const templateOf = routeTemplates(
    [
      route('get', '/engine/cdc-captures/:cdcCaptureId'),
      route('get', '/engine/cdc-captures/runtime'),
      route('post', '/engine/event-publications'),
      route('get', '/api/orders/:orderId/lines/:lineId'),
    ].sort(bySpecificity),
  );

  it('answers the template of the route a path matches, a literal segment before a parameter', () => {
    expect(templateOf('get', '/engine/cdc-captures/runtime')).toBe('/engine/cdc-captures/runtime');
    expect(templateOf('get', '/engine/cdc-captures/c-1')).toBe('/engine/cdc-captures/:cdcCaptureId');
    expect(templateOf('get', '/api/orders/o-1/lines/2')).toBe('/api/orders/:orderId/lines/:lineId');
    expect(templateOf('post', '/engine/event-publications/')).toBe('/engine/event-publications');
  });

  it('answers undefined for another method, another segment count or another literal', () => {
    expect(templateOf('get', '/engine/event-publications')).toBeUndefined();
    expect(templateOf('get', '/engine/cdc-captures')).toBeUndefined();
    expect(templateOf('get', '/api/orders/o-1/items/2')).toBeUndefined();
  });
});
