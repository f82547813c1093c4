import type { ModuleDefinition } from '@corekit/abstractions';

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `GET /api/orders/:` — the key two operations clash on (parameter names do not matter). */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:[^/]+/g, ':')}`;
}

/**
 * Problems with the shape of a module's `operations` declaration, as readable sentences; empty when it is
 * valid. Package modules are checked before they are imported into the engine; the operation registry
 * checks schemas and parameters of code modules at build.
 */
export function operationShapeProblems(module: ModuleDefinition): string[] {
  const operations: unknown = module.operations;
  if (operations === undefined) return [];
  if (!Array.isArray(operations)) return ['"operations" must be an array of operation definitions'];
  const problems: string[] = [];
  operations.forEach((operation: Record<string, unknown> | null, index) => {
    if (!operation || typeof operation !== 'object')
      return void problems.push(`operations[${index}] must be an object`);
    if (typeof operation.id !== 'string') problems.push(`operations[${index}].id must be a string`);
    if (!methods.includes(operation.method as string))
      problems.push(`operations[${index}].method must be one of ${methods.join(', ')}`);
    if (typeof operation.path !== 'string' || !operation.path.startsWith('/'))
      problems.push(`operations[${index}].path must start with "/"`);
    if (typeof operation.handler !== 'function')
      problems.push(`operations[${index}].handler must be a function`);
    if (!operation.result || typeof (operation.result as { safeParse?: unknown }).safeParse !== 'function')
      problems.push(`operations[${index}].result must be a zod schema`);
  });
  return problems;
}

/** The method and path of every operation a module declares. */
export function moduleRoutes(module: ModuleDefinition): Array<{ method: string; path: string }> {
  return (module.operations ?? []).map((operation) => ({ method: operation.method, path: operation.path }));
}
