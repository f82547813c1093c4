import type { Engine, Logger } from '@corekit/abstractions';
import { moduleRoutesExtensionKey, type ModuleRoute, type ModuleRouteRegistry } from '@corekit/engine-core';
import type { HostRoute } from './host-route';
import { webHostEventIds } from './web-host-event-ids';

/** A route a module declared (engine-core's `corekit.module-routes` extension) as a host route. */
function toHostRoute(route: ModuleRoute, engine: Engine): HostRoute {
  const origin = route.packageId
    ? `module ${route.moduleId} (package ${route.packageId})`
    : `module ${route.moduleId}`;
  return {
    method: route.method.toLowerCase() as HostRoute['method'],
    path: route.path,
    summary: route.summary ?? `${route.method} ${route.path}`,
    description: `Declared by ${origin}.`,
    tags: [route.moduleId],
    responses: { 200: { description: 'The module answer (JSON)', contentType: 'application/json' } },
    handler: async (request, response) => {
      const answer = await route.handle({
        params: { ...(request.params as Record<string, string>) },
        query: { ...(request.query as Record<string, unknown>) },
        body: request.body,
        headers: request.headers,
        engine,
      });
      for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
      response.status(answer.status ?? 200);
      if (answer.body === undefined) response.end();
      else response.json(answer.body);
    },
  };
}

/**
 * Mounts the REST routes modules declare, code modules at once and package modules once the engine has loaded
 * them (call again after start). A route that clashes with one already served is skipped and logged.
 */
export function createModuleRouteSync(
  engine: Engine,
  logger: Logger,
  isRegistered: (method: string, path: string) => boolean,
  register: (route: HostRoute) => void,
): () => void {
  const mounted = new Set<string>();
  return () => {
    const registry = engine.extension<ModuleRouteRegistry>(moduleRoutesExtensionKey);
    for (const route of registry?.routes() ?? []) {
      const key = `${route.method.toLowerCase()} ${route.path}`;
      if (mounted.has(key)) continue;
      mounted.add(key);
      if (isRegistered(route.method.toLowerCase(), route.path)) {
        logger.log({
          level: 'error',
          eventId: webHostEventIds.requestFailed,
          category: 'web-host',
          message: `Module ${route.moduleId} declares ${route.method} ${route.path}, which the host already serves; the module route is not mounted`,
        });
        continue;
      }
      register(toHostRoute(route, engine));
    }
  };
}
