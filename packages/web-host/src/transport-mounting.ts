import type { Logger, HttpMount, TransportAdapter, TransportMountContext } from '@corekit/abstractions';
import type { ShutdownParticipant } from '@corekit/worker-host';
import type { HostRoute } from './host-route';
import type { builtInTransports } from './transports';
import { webHostEventIds } from './web-host-event-ids';
import type { UpgradeHandler } from './websocket-events';

/** The transports `Engine:Transports` resolved to (see resolveTransports). */
export interface ResolvedTransports {
  readonly builtIn: ReadonlySet<(typeof builtInTransports)[number]>;
  readonly adapters: ReadonlyArray<{ readonly name: string; readonly adapter: TransportAdapter }>;
}

/** The live transports served: `RestApi` first (always served), the other built-in ones, then the adapters. */
export function servedTransportNames(transports: ResolvedTransports): string[] {
  return [
    'RestApi',
    ...[...transports.builtIn].filter((name) => name !== 'RestApi'),
    ...transports.adapters.map((adapter) => adapter.name),
  ];
}

/** Each served transport with the operations it serves (adapters say theirs; the built-in ones list none). */
export function transportListing(served: readonly string[], transports: ResolvedTransports) {
  return [
    ...served
      .filter((name) => !transports.adapters.some((entry) => entry.name === name))
      .map((name) => ({ name, operations: [] as string[] })),
    ...transports.adapters.map(({ name, adapter }) => ({
      name,
      operations: [...(adapter.mountedOperations?.() ?? [])],
    })),
  ];
}

/** What an HttpMount registers on: the host's `addRoute` and `onUpgrade`. */
export interface HttpMountTarget {
  addRoute(route: HostRoute): unknown;
  onUpgrade(path: string, handler: UpgradeHandler): unknown;
}

/** The host as transports and behavior streams mount on it: documented routes that parse their own bodies. */
export function hostHttpMount(host: HttpMountTarget): HttpMount {
  return {
    handle(path, methods, rawHandler, mountOptions = {}) {
      for (const method of methods) {
        host.addRoute({
          method: method.toLowerCase() as HostRoute['method'],
          path,
          summary: mountOptions.summary ?? `${method} ${path}`,
          requireAuthorization: mountOptions.requireAuthorization,
          ownsBodyParsing: true,
          responses: { 200: { description: 'The transport answer', contentType: 'application/json' } },
          handler: (request, response) => rawHandler(request, response),
        });
      }
    },
    onUpgrade(path, upgradeHandler) {
      host.onUpgrade(path, upgradeHandler);
    },
  };
}

/** Mounts every adapter, each on its own turn; a failure to mount is logged, not fatal. */
export function mountTransportAdapters(
  transports: ResolvedTransports,
  context: TransportMountContext,
  logger: Logger,
): void {
  for (const { name, adapter } of transports.adapters) {
    Promise.resolve()
      .then(() => adapter.mount({ ...context }))
      .catch((error: unknown) =>
        logger.log({
          level: 'error',
          eventId: webHostEventIds.requestFailed,
          category: 'web-host',
          message: `The ${name} transport adapter failed to mount: ${(error as Error)?.message ?? error}`,
        }),
      );
  }
}

/**
 * Adapters with a server of their own (gRPC) release it after the engine stopped, also after a failed start
 * that ends the process; an adapter that fails to unmount is logged, not fatal.
 */
export function transportAdaptersParticipant(
  transports: ResolvedTransports,
  logger: Logger,
): ShutdownParticipant {
  return {
    name: 'transport-adapters',
    drain: async () => undefined,
    async close() {
      for (const { name, adapter } of transports.adapters) {
        try {
          await adapter.unmount?.();
        } catch (error) {
          logger.log({
            level: 'warn',
            eventId: webHostEventIds.transportUnmountFailed,
            category: 'web-host',
            message: `The ${name} transport adapter failed to unmount: ${(error as Error)?.message ?? error}`,
          });
        }
      }
    },
  };
}
