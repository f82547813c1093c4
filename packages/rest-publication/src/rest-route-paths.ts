/** Path rules shared by every authoring style: express syntax, literal segments and `:name` parameters only. */

const literalSegment = /^[A-Za-z0-9._~-]+$/;
const parameterSegment = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

/** Joins a prefix and a relative path: `joinRoutePath('/api/', '/orders/')` is `/api/orders`; `''` or `/` adds nothing. */
export function joinRoutePath(prefix: string, path: string): string {
  const segments = [...prefix.split('/'), ...path.split('/')].filter((segment) => segment.length > 0);
  return `/${segments.join('/')}`;
}

/** Problems with a full route path, as sentences; empty when it is valid. */
export function routePathProblems(path: string): string[] {
  if (typeof path !== 'string' || !path.startsWith('/'))
    return [`path ${JSON.stringify(path)} must start with "/"`];
  const problems: string[] = [];
  const parameters = new Set<string>();
  for (const segment of path.split('/').filter(Boolean)) {
    const parameter = parameterSegment.exec(segment);
    if (parameter) {
      if (parameters.has(parameter[1]))
        problems.push(`path ${JSON.stringify(path)} names the parameter "${parameter[1]}" twice`);
      parameters.add(parameter[1]);
    } else if (!literalSegment.test(segment)) {
      problems.push(
        `path ${JSON.stringify(path)} has the segment ${JSON.stringify(segment)}; use letters, digits, . _ ~ - or a :parameter (no wildcards or patterns)`,
      );
    }
  }
  if (
    path
      .split('/')
      .slice(1, -1)
      .some((segment) => segment === '')
  )
    problems.push(`path ${JSON.stringify(path)} has an empty segment`);
  return problems;
}

/** The names of the `:parameters` of a path, in order. */
export function routeParameters(path: string): string[] {
  return path
    .split('/')
    .map((segment) => parameterSegment.exec(segment)?.[1])
    .filter((name): name is string => name !== undefined);
}

/**
 * The key two routes collide on: method plus the path with parameter names erased and literals lower-cased
 * (express matches paths case-insensitively, and `/orders/:id` and `/orders/:orderId` are the same route).
 */
export function routeKey(method: string, path: string): string {
  const shape = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (parameterSegment.test(segment) ? ':' : segment.toLowerCase()))
    .join('/');
  return `${method.toUpperCase()} /${shape}`;
}

/** Path prefixes the hosts serve themselves; a published endpoint may not claim them. */
export const reservedRoutePrefixes = ['/engine', '/health', '/openapi', '/scalar'] as const;

/** The reserved prefix a path falls under, if any. */
export function reservedPrefixOf(path: string): string | undefined {
  const lowered = path.toLowerCase();
  return reservedRoutePrefixes.find((prefix) => lowered === prefix || lowered.startsWith(`${prefix}/`));
}

/** `/api/orders` is `api-orders`; the root is `root`. */
export function slugOf(path: string): string {
  return (
    path
      .split('/')
      .filter(Boolean)
      .map((segment) => segment.replace(/^:/, ''))
      .join('-') || 'root'
  );
}
