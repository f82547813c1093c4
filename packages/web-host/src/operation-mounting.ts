import type { Engine, Logger, OperationDefinition } from '@corekit/abstractions';
import type { HostRoute } from './host-route';
import { operationRoute, type OperationRouteContext } from './operation-routes';
import { webHostEventIds } from './web-host-event-ids';

/** The part of the route table operation mounting uses. */
export interface OperationRouteTarget {
  clashWith(method: string, path: string): HostRoute | undefined;
  push(...routes: readonly HostRoute[]): void;
  rebuild(): void;
}

/**
 * Mounts the engine's operations as routes, each once: every operation known at host creation, then those of
 * package modules once the engine loaded them (`sync()` after the start). An operation whose method and path the
 * host already serves is logged and left unmounted; the existing route keeps serving.
 */
export class OperationMounting {
  private readonly mounted = new Set<string>();

  constructor(
    private readonly operations: Pick<Engine['operations'], 'list'>,
    private readonly routes: OperationRouteTarget,
    private readonly context: OperationRouteContext,
    private readonly logger: Logger,
  ) {}

  /** Mounts the operations not mounted yet; rebuilds the router when one was added. */
  sync(): void {
    let added = false;
    for (const operation of this.operations.list()) {
      if (this.mounted.has(operation.id)) continue;
      this.mounted.add(operation.id);
      if (this.routes.clashWith(operation.method.toLowerCase(), operation.path)) {
        this.logClash(operation);
        continue;
      }
      this.routes.push(operationRoute(operation, this.context));
      added = true;
    }
    if (added) this.routes.rebuild();
  }

  private logClash(operation: OperationDefinition): void {
    this.logger.log({
      level: 'error',
      eventId: webHostEventIds.requestFailed,
      category: 'web-host',
      message: `Operation ${operation.id} (${operation.owner ?? 'no owner'}) declares ${operation.method} ${operation.path}, which the host already serves; it is not mounted`,
    });
  }
}
