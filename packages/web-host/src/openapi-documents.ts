import type { Express } from 'express';
import { isEnginePath } from './host-authorization';
import type { HostRoute } from './host-route';
import {
  buildOpenApiDocument,
  isSelectedRoute,
  type OpenApiDocument,
  type OpenApiSelection,
  type UndocumentedRoute,
} from './openapi-document';

/** What the documents are built from. */
export interface OpenApiSources {
  /** The host's title (`createWebHost({ title })`, default `Core host`). */
  readonly title: string;
  /** The version the documents carry: the engine's. */
  version(): string;
  /** Every documented route, most specific first. */
  routes(): readonly HostRoute[];
  /** How many routes are documented (part of the cache key: a route added later changes the documents). */
  routeCount(): number;
  /** Routes added on the express app directly (listed without a description). */
  undocumented(): UndocumentedRoute[];
  isGuarded(route: HostRoute): boolean;
}

/**
 * The host's OpenAPI documents, built on first request per selection and kept until `clear()` (the route table
 * clears them on every rebuild). `engineRoutes: false` leaves out the `/engine` routes.
 */
export class OpenApiDocuments {
  private readonly cache = new Map<string, OpenApiDocument>();

  constructor(private readonly sources: OpenApiSources) {}

  document(
    selection: OpenApiSelection = { majorVersion: 1 },
    { engineRoutes = true }: { readonly engineRoutes?: boolean } = {},
  ): OpenApiDocument {
    const described = (path: string) => engineRoutes || !isEnginePath(path);
    const undocumented = (selection.documentName === undefined ? this.sources.undocumented() : []).filter(
      (route) => described(route.path),
    );
    const key = `${this.sources.routeCount()}:${undocumented.length}:${selection.majorVersion}:${selection.documentName ?? ''}:${engineRoutes}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const title = this.sources.title;
    const document = buildOpenApiDocument({
      title:
        selection.documentName === undefined
          ? title
          : `${title}: ${selection.documentName} (API v${selection.majorVersion})`,
      version: this.sources.version(),
      routes: this.sources
        .routes()
        .filter((route) => isSelectedRoute(route, selection) && described(route.path)),
      undocumented,
      isGuarded: (route) => this.sources.isGuarded(route),
    });
    this.cache.set(key, document);
    return document;
  }

  clear(): void {
    this.cache.clear();
  }
}

/** The routes added on an express app directly (`host.app.get(...)`): method and path of each. */
export function expressAppRoutes(app: Express): UndocumentedRoute[] {
  const stack =
    (
      app as unknown as {
        router?: { stack?: Array<{ route?: { path: unknown; methods: Record<string, boolean> } }> };
      }
    ).router?.stack ?? [];
  return stack.flatMap((layer) =>
    layer.route && typeof layer.route.path === 'string'
      ? Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method, path: layer.route!.path as string }))
      : [],
  );
}
