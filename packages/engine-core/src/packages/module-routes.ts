import type { Engine, ModuleDefinition } from '@corekit/abstractions';

/** Key of the engine extension that lists the REST routes modules declare: `engine.extension(moduleRoutesExtensionKey)`. */
export const moduleRoutesExtensionKey = 'corekit.module-routes';

export type ModuleRouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route handler receives; transport-neutral, so any host can adapt its own request to it. */
export interface ModuleRouteRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The running engine, for routes that report runtime state. */
  readonly engine: Engine;
}

/** What a route handler returns; `status` defaults to 200 and `body` is sent as JSON. */
export interface ModuleRouteResponse {
  readonly status?: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A REST route a module declares. Hosts with module-route support mount it; the engine never serves HTTP. */
export interface ModuleRouteDefinition {
  readonly method: ModuleRouteMethod;
  /** Absolute path in the host's syntax for parameters (`/api/orders/:orderId`). */
  readonly path: string;
  /** One line for the API reference. */
  readonly summary?: string;
  handle(request: ModuleRouteRequest): ModuleRouteResponse | Promise<ModuleRouteResponse>;
}

/** A module definition that may also declare REST routes: the shape a module package exports. */
export interface RoutedModuleDefinition extends ModuleDefinition {
  readonly routes?: readonly ModuleRouteDefinition[];
}

/** A declared route together with where it came from. */
export interface ModuleRoute extends ModuleRouteDefinition {
  readonly moduleId: string;
  readonly origin: 'code' | 'package';
  /** The package id when the module came from an out-of-tree package. */
  readonly packageId: string | null;
}

/**
 * The value of the `corekit.module-routes` extension. Live: routes of module packages appear once the engine
 * has discovered and loaded them during start, so hosts read it when the engine has started.
 */
export interface ModuleRouteRegistry {
  routes(): readonly ModuleRoute[];
}

const methods: readonly ModuleRouteMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Problems with a module's `routes` declaration, as readable sentences; empty when it is valid. */
export function routeProblems(module: RoutedModuleDefinition): string[] {
  const routes: unknown = module.routes;
  if (routes === undefined) return [];
  if (!Array.isArray(routes)) return ['"routes" must be an array of { method, path, handle }'];
  const problems: string[] = [];
  const seen = new Set<string>();
  routes.forEach((route: Partial<ModuleRouteDefinition>, index) => {
    if (!route || typeof route !== 'object') return void problems.push(`routes[${index}] must be an object`);
    if (!methods.includes(route.method as ModuleRouteMethod))
      problems.push(`routes[${index}].method must be one of ${methods.join(', ')}`);
    if (typeof route.path !== 'string' || !route.path.startsWith('/'))
      problems.push(`routes[${index}].path must start with "/"`);
    if (typeof route.handle !== 'function') problems.push(`routes[${index}].handle must be a function`);
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) problems.push(`routes[${index}] declares ${key} twice`);
    seen.add(key);
  });
  return problems;
}

/** Collects routes from code modules (known at build) and package modules (added when loaded). */
export class ModuleRouteCollection implements ModuleRouteRegistry {
  private readonly declared: ModuleRoute[] = [];

  add(module: RoutedModuleDefinition, origin: 'code' | 'package', packageId: string | null = null): void {
    for (const route of module.routes ?? []) {
      this.declared.push({
        method: route.method,
        path: route.path,
        summary: route.summary,
        handle: (request) => route.handle(request),
        moduleId: module.id,
        origin,
        packageId,
      });
    }
  }

  routes(): readonly ModuleRoute[] {
    return [...this.declared];
  }
}
