import { pathSegments, requestSegments, type HostRoute } from './host-route';

interface CompiledTemplate {
  readonly path: string;
  /** Per segment: the literal to equal, or null for a `:name` parameter. */
  readonly literals: ReadonlyArray<string | null>;
}

/**
 * The route template a request path matches (`/engine/cdc-captures/:cdcCaptureId`), for the HTTP telemetry's
 * `http.route`. Built once per router rebuild from the routes in specificity order: a request only splits its
 * path and compares literals, per method and segment count, instead of parsing every route's pattern again.
 */
export function routeTemplates(routesBySpecificity: readonly HostRoute[]) {
  const byMethodAndLength = new Map<string, CompiledTemplate[]>();
  for (const route of routesBySpecificity) {
    const literals = pathSegments(route.path).map((segment) =>
      'literal' in segment ? segment.literal : null,
    );
    const key = `${route.method} ${literals.length}`;
    const list = byMethodAndLength.get(key) ?? [];
    list.push({ path: route.path, literals });
    byMethodAndLength.set(key, list);
  }
  return (verb: string, path: string): string | undefined => {
    const actual = requestSegments(path);
    if (actual === undefined) return undefined;
    const candidates = byMethodAndLength.get(`${verb} ${actual.length}`);
    if (!candidates) return undefined;
    for (const candidate of candidates) {
      if (candidate.literals.every((literal, index) => literal === null || literal === actual[index]))
        return candidate.path;
    }
    return undefined;
  };
}
