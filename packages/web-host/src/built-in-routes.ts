import type { Engine } from '@corekit/abstractions';
import type { Response } from 'express';
import { z } from 'zod';
import { catalogRoutes } from './catalog-routes';
import { engineSurfaceRoutes, healthRoutes, type EngineLink } from './engine-routes';
import type { EventClients } from './event-clients';
import type { HostAuthorization } from './host-authorization';
import { toOpenApiPath, type HostRoute } from './host-route';
import { restEndpointRoutes, type DocumentFor } from './rest-endpoint-routes';
import { openApiRoute, scalarRoutes } from './scalar-reference';
import { serverSentEventsRoutes } from './server-sent-events';
import type { WebHostConfiguration } from './web-host-options';
import type { WebSocketEvents } from './websocket-events';

/** What the host's own routes are served from. */
export interface BuiltInRouteParts {
  readonly engine: Engine;
  readonly settings: WebHostConfiguration;
  readonly title: string;
  readonly authorization: HostAuthorization;
  /** Every documented route (the `/engine` index links those with a `rel`). */
  routes(): readonly HostRoute[];
  /** The transports served with their operations (`/engine/transports`). */
  transports(): Array<{ name: string; operations: string[] }>;
  /** The OpenAPI document as the caller may see it. */
  readonly document: DocumentFor;
  readonly eventClients: EventClients;
  /** Served when `Engine:Transports` lists ServerSentEvents. */
  readonly serverSentEvents: boolean;
  /** Lets an event stream outlive the drain (it ends with the shutdown event instead). */
  releaseFromDrain(response: Response): void;
  /** Present when `Engine:Transports` lists WebSocket. */
  readonly webSocketEvents: WebSocketEvents | undefined;
}

/** The `/engine` index entries: every route with a `rel`. */
export function engineLinks(routes: readonly HostRoute[]): EngineLink[] {
  return routes
    .filter((route) => route.rel)
    .map((route) => ({
      rel: route.rel!,
      href: toOpenApiPath(route.path),
      method: route.method.toUpperCase(),
      templated: route.path.includes(':'),
      description: route.summary,
    }));
}

/**
 * The routes every web host serves, in registration order: health, the `/engine` surfaces, the catalogs, the
 * module REST endpoints, the event streams of the configured transports, and the OpenAPI document with the
 * Scalar reference when `Engine:Web:OpenApi:Enabled`.
 */
export function builtInRoutes(parts: BuiltInRouteParts): HostRoute[] {
  const { engine, settings } = parts;
  const openApi = settings.OpenApi.Enabled;
  return [
    ...healthRoutes(
      engine,
      settings.Health.ShowDetails,
      parts.authorization.detailsPolicy(settings.Health.ShowDetails),
    ),
    ...engineSurfaceRoutes(engine, () => engineLinks(parts.routes()), parts.transports),
    ...engine.catalogs().flatMap((view) => catalogRoutes(view)),
    ...restEndpointRoutes(engine, openApi ? parts.document : undefined, parts.authorization.authorizer),
    ...(parts.serverSentEvents
      ? serverSentEventsRoutes(parts.eventClients, settings.Events.HeartbeatInterval, parts.releaseFromDrain)
      : []),
    ...(parts.webSocketEvents?.routes() ?? []),
    ...(openApi ? [openApiDocumentRoute(parts.document), ...scalarRoutes(parts.title)] : []),
  ];
}

/** `GET /openapi/v1.json`: the document of API major version 1 as the caller may see it. */
function openApiDocumentRoute(document: DocumentFor): HostRoute {
  return {
    method: 'get',
    path: openApiRoute,
    rel: 'openapi',
    summary: 'OpenAPI 3.1 document of every route served',
    tags: ['Reference'],
    responses: { 200: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
    handler: async (request, response) => response.json(await document({ majorVersion: 1 }, request)),
  };
}
