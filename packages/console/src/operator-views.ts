import {
  isOperationError,
  type Engine,
  type OperationAuthorizeFunction,
  type OperatorViewDefinition,
} from '@corekit/abstractions';
import { z } from 'zod';

/** Rows shown per view; the view's JSON route holds the rest. */
export const operatorViewRowLimit = 200;

const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One declared operator view with its current rows, as the console shows it. */
export const operatorViewDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  listPath: z.string(),
  columns: z.array(z.string()),
  /** How each column's cells are shown (`text`, `time`, `countdown`: an ISO time shown as the time left). */
  columnFormats: z.array(z.enum(['text', 'time', 'countdown'])),
  /** What an operator can create from the view: the operation's route and method, and the form's fields. */
  forms: z.array(
    z.object({
      label: z.string(),
      description: z.string().nullable(),
      operationId: z.string(),
      method: z.string(),
      path: z.string(),
      fields: z.array(
        z.object({
          name: z.string(),
          label: z.string(),
          kind: z.enum(['text', 'choice', 'minutes-from-now']),
          required: z.boolean(),
          choices: z.array(z.string()),
          defaultValue: z.string().nullable(),
          hint: z.string().nullable(),
        }),
      ),
    }),
  ),
  /** Rows the caller may see (those of tenants the authorizer refused are not counted). */
  rowCount: z.number().int(),
  /** Rows hidden because the view scopes its rows to tenants and the caller may not read theirs. */
  hiddenRowCount: z.number().int(),
  rows: z.array(
    z.object({
      id: z.string(),
      /** The row's JSON route, when the view declares one. */
      path: z.string().nullable(),
      cells: z.array(cellSchema),
      actions: z.array(
        z.object({
          label: z.string(),
          operationId: z.string(),
          method: z.string(),
          /** The operation's route with the row's values filled in. */
          path: z.string(),
          body: z.record(z.string(), z.unknown()).nullable(),
        }),
      ),
    }),
  ),
  /** Set when reading the rows failed: the view is shown with the reason, the others still load. */
  error: z.string().nullable(),
});

export type OperatorViewDocument = z.infer<typeof operatorViewDocumentSchema>;

const fieldOf = (row: unknown, field: string): string => {
  const value = row !== null && typeof row === 'object' ? (row as Record<string, unknown>)[field] : undefined;
  return value === undefined || value === null ? '' : String(value);
};

/** `/engine/x/{id}` with `{id}` taken from the row. */
const fillBraces = (template: string, row: unknown) =>
  template.replace(/\{([A-Za-z_]\w*)\}/g, (_match, field: string) => encodeURIComponent(fieldOf(row, field)));

/** `/engine/x/:id` with `:id` taken from the row field the action maps it to. */
const fillParams = (template: string, params: Readonly<Record<string, string>>, row: unknown) =>
  template.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) =>
    encodeURIComponent(fieldOf(row, params[name] ?? name)),
  );

/**
 * The rows of a tenant-scoped view the caller may see: the authorizer is asked once per tenant among the rows
 * (the view's policy, the resource `{ tenantId, kind }`); a refusal hides that tenant's rows, any other
 * failure fails the view.
 */
async function visibleRows(
  view: OperatorViewDefinition,
  rows: readonly unknown[],
  authorize: OperationAuthorizeFunction,
): Promise<readonly unknown[]> {
  const scope = view.tenantAuthorization;
  if (!scope) return rows;
  const allowed = new Map<string, boolean>();
  for (const row of rows) {
    const tenantId = scope.tenantOf(row);
    if (allowed.has(tenantId)) continue;
    try {
      await authorize({
        policy: scope.policy,
        resource: { tenantId, ...(scope.kind !== undefined ? { kind: scope.kind } : {}) },
      });
      allowed.set(tenantId, true);
    } catch (error) {
      if (!isOperationError(error) || (error.kind !== 'unauthenticated' && error.kind !== 'forbidden')) {
        throw error;
      }
      allowed.set(tenantId, false);
    }
  }
  return rows.filter((row) => allowed.get(scope.tenantOf(row)) === true);
}

/** The view's forms with their operation's method and route (a form whose operation is gone is left out). */
function presentForms(engine: Engine, view: OperatorViewDefinition): OperatorViewDocument['forms'] {
  return (view.forms ?? []).flatMap((form) => {
    const operation = engine.operations.find(form.operationId);
    if (!operation) return [];
    return [
      {
        label: form.label,
        description: form.description ?? null,
        operationId: form.operationId,
        method: operation.method,
        path: operation.path,
        fields: form.fields.map((field) => ({
          name: field.name,
          label: field.label,
          kind: field.kind,
          required: field.required ?? false,
          choices: [...(field.choices ?? [])],
          defaultValue: field.defaultValue ?? null,
          hint: field.hint ?? null,
        })),
      },
    ];
  });
}

async function presentView(
  engine: Engine,
  view: OperatorViewDefinition,
  authorize: OperationAuthorizeFunction,
): Promise<OperatorViewDocument> {
  const base = {
    id: view.id,
    title: view.title,
    description: view.description,
    listPath: view.listPath,
    columns: view.columns.map((column) => column.label),
    columnFormats: view.columns.map((column) => column.format ?? 'text'),
    forms: presentForms(engine, view),
  };
  let rows: readonly unknown[];
  let hiddenRowCount = 0;
  try {
    const all = await view.rows();
    rows = await visibleRows(view, all, authorize);
    hiddenRowCount = all.length - rows.length;
  } catch (error) {
    return {
      ...base,
      rowCount: 0,
      hiddenRowCount: 0,
      rows: [],
      error: error instanceof Error ? error.message : String(error),
    };
  }
  const actions = (view.actions ?? []).flatMap((action) => {
    const operation = engine.operations.find(action.operationId);
    return operation ? [{ action, operation }] : [];
  });
  return {
    ...base,
    rowCount: rows.length,
    hiddenRowCount,
    rows: rows.slice(0, operatorViewRowLimit).map((row) => ({
      id: fieldOf(row, view.idField),
      path: view.entryPath ? fillBraces(view.entryPath, row) : null,
      cells: view.columns.map((column) => column.value(row)),
      actions: actions.map(({ action, operation }) => ({
        label: action.label,
        operationId: action.operationId,
        method: operation.method,
        path: fillParams(operation.path, action.params ?? {}, row),
        body: action.body ? { ...action.body } : null,
      })),
    })),
    error: null,
  };
}

/**
 * Every operator view the installed packs declared, each with the rows now that the caller may see (`authorize`
 * is the request's `OperationContext.authorize`, asked for the tenants of a tenant-scoped view). Generic: a
 * pack's new view appears without console code. Views add no route of their own (nothing can shadow a
 * catalog's by-id route); this is the console's one read of them.
 */
export async function operatorViews(
  engine: Engine,
  authorize: OperationAuthorizeFunction,
): Promise<OperatorViewDocument[]> {
  const views = [...engine.operatorViews()].sort((a, b) => a.title.localeCompare(b.title));
  return Promise.all(views.map((view) => presentView(engine, view, authorize)));
}
