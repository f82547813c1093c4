import {
  CoreError,
  isIdentifier,
  type CatalogEntryAction,
  type CatalogView,
  type DependencyHealthContributor,
  type HostedService,
  type LifecycleHooks,
  type ModuleDefinition,
  type OperationDefinition,
  type OperatorViewDefinition,
} from '@corekit/abstractions';
import type { EventIdCatalog } from './pack/event-id-catalog';
import type { EngineOperationRegistry } from './pack/operation-registry';

/** What `build()` checks before it resolves catalogs and runs the packs' build hooks. */
export interface Registrations {
  readonly modules: readonly ModuleDefinition[];
  readonly contributors: readonly DependencyHealthContributor[];
  readonly hostedServices: readonly HostedService[];
  readonly hooks: readonly LifecycleHooks[];
  readonly operations: Pick<EngineOperationRegistry, 'list' | 'problems'>;
  readonly eventIds: Pick<EventIdCatalog, 'problems'>;
  readonly catalogViews: readonly CatalogView[];
  readonly operatorViews: readonly OperatorViewDefinition[];
}

/**
 * Every problem of the registrations, in a stable order: ids (modules, contributors, hosted services, lifecycle
 * hooks), module versions, contributor intervals, operations, event ids, then the catalog and operator-view
 * actions and forms (each must name a registered operation whose path parameters it fills).
 */
export function registrationProblems(registrations: Registrations): string[] {
  const { modules, contributors } = registrations;
  const problems: string[] = [];
  checkIds(
    'module',
    modules.map((module) => module.id),
    problems,
  );
  checkIds(
    'dependency-health contributor',
    contributors.map((contributor) => contributor.id),
    problems,
  );
  checkIds(
    'hosted service',
    registrations.hostedServices.map((service) => service.id),
    problems,
  );
  checkIds(
    'lifecycle hooks',
    registrations.hooks.map((hooks) => hooks.id),
    problems,
  );
  for (const module of modules) {
    if (typeof module.version !== 'string' || module.version.length === 0) {
      problems.push(`module ${module.id} has no version`);
    }
  }
  for (const contributor of contributors) {
    for (const field of ['refreshIntervalSeconds', 'timeoutSeconds'] as const) {
      const value = contributor[field];
      if (value !== undefined && !(typeof value === 'number' && value > 0 && Number.isFinite(value))) {
        problems.push(
          `dependency-health contributor ${contributor.id} ${field} must be a positive number, got ${JSON.stringify(value)}`,
        );
      }
    }
  }
  problems.push(
    ...registrations.operations.problems(),
    ...registrations.eventIds.problems(),
    ...actionProblemsOf(registrations),
  );
  return problems;
}

/** Throws ENGINE_REGISTRATION_INVALID listing every problem; does nothing when there is none. */
export function throwIfInvalid(problems: readonly string[]): void {
  if (problems.length === 0) return;
  throw new CoreError(
    'ENGINE_REGISTRATION_INVALID',
    `The engine cannot be built:\n- ${problems.join('\n- ')}`,
    {
      problems: [...problems],
    },
  );
}

interface PlacedAction {
  readonly where: string;
  readonly action: CatalogEntryAction;
}

function actionProblemsOf(registrations: Registrations): string[] {
  const operations = registrations.operations.list();
  const problems = actionProblems(catalogActions(registrations.catalogViews), operations);
  checkIds(
    'operator view',
    registrations.operatorViews.map((view) => view.id),
    problems,
  );
  problems.push(
    ...actionProblems(
      registrations.operatorViews.flatMap((view) => [
        ...(view.actions ?? []).map((action) => ({
          where: `operator view ${view.id} action "${action.label}"`,
          action,
        })),
        // A form fills the body only: its operation must take no path parameter.
        ...(view.forms ?? []).map((form) => ({
          where: `operator view ${view.id} form "${form.label}"`,
          action: { operationId: form.operationId, label: form.label },
        })),
      ]),
      operations,
    ),
  );
  return problems;
}

function catalogActions(views: readonly CatalogView[]): PlacedAction[] {
  return views.flatMap((view) =>
    (view.definition.views ?? []).flatMap((filter) =>
      (filter.actions ?? []).map((action) => ({
        where: `catalog ${view.definition.id} view ${filter.segment} action "${action.label}"`,
        action,
      })),
    ),
  );
}

/** An action (of a catalog view or an operator view) must name a registered operation whose path parameters it fills. */
function actionProblems(
  actions: readonly PlacedAction[],
  operations: readonly OperationDefinition[],
): string[] {
  const problems: string[] = [];
  for (const { where, action } of actions) {
    const operation = operations.find((candidate) => candidate.id === action.operationId);
    if (!operation) {
      problems.push(`${where} names operation "${action.operationId}", which is not registered`);
      continue;
    }
    const parameters = [...operation.path.matchAll(/:([A-Za-z_][\w]*)/g)].map((match) => match[1]);
    const missing = parameters.filter((name) => !(action.params && name in action.params));
    if (missing.length > 0) problems.push(`${where} does not fill the parameters ${missing.join(', ')}`);
  }
  return problems;
}

function checkIds(what: string, ids: readonly string[], problems: string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (!isIdentifier(id))
      problems.push(`${what} id ${JSON.stringify(id)} is not a valid id (letters, digits, . _ : -)`);
    else if (seen.has(id)) problems.push(`${what} id "${id}" is registered twice`);
    seen.add(id);
  }
}
