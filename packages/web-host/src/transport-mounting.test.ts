import type { LogRecord, TransportAdapter, TransportMountContext } from '@corekit/abstractions';
import type { HostRoute } from './host-route';
import {
  hostHttpMount,
  mountTransportAdapters,
  servedTransportNames,
  transportAdaptersParticipant,
  transportListing,
  type ResolvedTransports,
} from './transport-mounting';
import { webHostEventIds } from './web-host-event-ids';

function adapter(
  name: string,
  behaviour: Partial<TransportAdapter> = {},
): { name: string; adapter: TransportAdapter } {
  return { name, adapter: { name, mount: () => undefined, ...behaviour } };
}

describe('transport mounting', () => {
  it('names RestApi first, then the other built-in transports, then the adapters with their operations', () => {
    const transports: ResolvedTransports = {
      builtIn: new Set(['ServerSentEvents', 'RestApi']),
      adapters: [adapter('GraphQL', { mountedOperations: () => ['orders.list'] })],
    };
    const served = servedTransportNames(transports);
    expect(served).toEqual(['RestApi', 'ServerSentEvents', 'GraphQL']);
    expect(transportListing(served, transports)).toEqual([
      { name: 'RestApi', operations: [] },
      { name: 'ServerSentEvents', operations: [] },
      { name: 'GraphQL', operations: ['orders.list'] },
    ]);
  });

  it('registers an HttpMount handler as one documented route per method that parses its own body', () => {
    const added: HostRoute[] = [];
    const upgrades: string[] = [];
    const mount = hostHttpMount({
      addRoute: (route) => added.push(route),
      onUpgrade: (path) => upgrades.push(path),
    });
    mount.handle('/graphql', ['GET', 'POST'], () => undefined, { requireAuthorization: true });
    mount.onUpgrade('/graphql/ws', () => undefined);
    expect(added.map((route) => [route.method, route.path, route.summary, route.ownsBodyParsing])).toEqual([
      ['get', '/graphql', 'GET /graphql', true],
      ['post', '/graphql', 'POST /graphql', true],
    ]);
    expect(added.every((route) => route.requireAuthorization)).toBe(true);
    expect(upgrades).toEqual(['/graphql/ws']);
  });

  it('mounts every adapter with the context; a failed mount is logged and the others still mount', async () => {
    const records: LogRecord[] = [];
    const contexts: TransportMountContext[] = [];
    const transports: ResolvedTransports = {
      builtIn: new Set(),
      adapters: [
        adapter('Grpc', { mount: () => Promise.reject(new Error('port taken')) }),
        adapter('JsonRpc', { mount: (context) => void contexts.push(context) }),
      ],
    };
    const context = { engine: {}, http: null, descriptionsGuarded: true } as unknown as TransportMountContext;
    mountTransportAdapters(transports, context, { log: (record) => void records.push(record) });
    expect(contexts).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(contexts).toEqual([context]);
    expect(records).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'The Grpc transport adapter failed to mount: port taken',
      }),
    ]);
  });

  it('unmounts every adapter at close; a failure is a warning, not the end of the shutdown', async () => {
    const records: LogRecord[] = [];
    const unmounted: string[] = [];
    const participant = transportAdaptersParticipant(
      {
        builtIn: new Set(),
        adapters: [
          adapter('Grpc', { unmount: () => Promise.reject(new Error('already closed')) }),
          adapter('JsonRpc', { unmount: () => void unmounted.push('JsonRpc') }),
          adapter('GraphQL'),
        ],
      },
      { log: (record) => void records.push(record) },
    );
    expect(participant.name).toBe('transport-adapters');
    await participant.close!();
    expect(unmounted).toEqual(['JsonRpc']);
    expect(records).toEqual([
      expect.objectContaining({ level: 'warn', eventId: webHostEventIds.transportUnmountFailed }),
    ]);
  });
});
