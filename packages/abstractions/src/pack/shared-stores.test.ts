import { recordFromJson, storeExpiryOf, storeUnavailableError } from './shared-stores';

describe('shared store helpers', () => {
  it('STORE_UNAVAILABLE names the product, store and address, and never the connection setting or its password', () => {
    const connection = 'postgres://app:p%40ss-w0rd@db.internal:5432/orders';
    const server = {
      product: 'PostgreSQL',
      address: 'db.internal:5432/orders',
      connection,
      connectionPlaceholder: '<connection string>',
    };
    const error = storeUnavailableError(
      server,
      'leases',
      new Error(`connect to ${connection} failed; password p@ss-w0rd, again p%40ss-w0rd`),
      'not reachable',
    );
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.details).toEqual({ store: 'leases', server: 'db.internal:5432/orders' });
    expect(error.message).toBe(
      'PostgreSQL store "leases" failed on db.internal:5432/orders: not reachable; connect to <connection string> failed; password ***, again ***',
    );
  });

  it('reads a record back as a fresh copy stamped in ISO UTC, and rounds an expiry up', () => {
    const first = recordFromJson<{ n: number }>('a', '{"n":1}', 3, Date.parse('2026-03-01T10:00:00.250Z'));
    expect(first).toEqual({
      key: 'a',
      value: { n: 1 },
      version: 3,
      updatedAtUtc: '2026-03-01T10:00:00.250Z',
    });
    expect(recordFromJson('a', '{"n":1}', 3, 0).value).not.toBe(first.value);
    expect(storeExpiryOf(1000, { ttlMs: 0.5 })).toBe(1001);
    expect(storeExpiryOf(1000, {})).toBeUndefined();
  });
});
