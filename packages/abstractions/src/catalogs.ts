import type { ZodType } from 'zod';

/** One problem found while resolving catalog references at build time. */
export interface CatalogProblem {
  readonly catalog: string;
  readonly entryId: string;
  readonly field: string;
  readonly value: unknown;
  readonly message: string;
}

/** What a catalog's resolver can see at build time to check its references. */
export interface CatalogResolutionContext {
  readonly moduleIds: ReadonlySet<string>;
  /** Capability keys by module id. */
  readonly capabilities: ReadonlyMap<string, ReadonlySet<string>>;
  /** The contributed entries of another catalog, by catalog id (empty when none). */
  entries(catalogId: string): readonly unknown[];
}

/** A narrowed list route under a catalog: `/engine/cell-traffic-automations/providers/{providerId}`. */
export interface CatalogNarrowing<T = unknown> {
  /** Path segments after the catalog path, before the parameter (`providers`, `runtime/reporters`). */
  readonly segment: string;
  /** Name of the route parameter, used in OpenAPI (`providerId`). */
  readonly parameter: string;
  readonly description?: string;
  select(entry: T, value: string): boolean;
}

/**
 * A parameterless filtered list under a catalog path: `/engine/event-dispatches/terminal-failures`.
 */
export interface CatalogFilterView<T = unknown> {
  /** Path segments after the catalog path (`terminal-failures`). */
  readonly segment: string;
  readonly description: string;
  /**
   * True when an entry here wants an operator (a run awaiting approval, a terminal failure): operator surfaces
   * such as `@corekit/console` list these views together. Default false.
   */
  readonly attention?: boolean;
  /** What an operator can do to an entry of this view, through the pack's own operations. */
  readonly actions?: readonly CatalogEntryAction[];
  select(entry: T): boolean;
}

/**
 * An action on one catalog entry, carried out by calling a registered operation: the operation's own
 * authorization applies (the host's `authorize` hook decides), so offering an action grants nothing.
 */
export interface CatalogEntryAction {
  /** The operation called (`agents.decide-run`); the build fails when no operation has this id. */
  readonly operationId: string;
  /** Short verb for a button (`Approve`). */
  readonly label: string;
  /** The operation's path parameters, each filled from an entry field: `{ runId: 'runId' }`. */
  readonly params?: Readonly<Record<string, string>>;
  /** The JSON body sent, when the operation takes one (`{ decision: 'approve' }`). */
  readonly body?: Readonly<Record<string, unknown>>;
}

/**
 * A catalog registered with the engine. Hosts serve every registered catalog generically: a list route at
 * `path`, a by-id route when `idField` is set (404 for an unknown id), each narrowing, and the catalog under
 * `snapshotField` in `/engine/snapshot`.
 */
export interface CatalogDefinition<T = unknown> {
  /** Stable id, the last path segment by convention (`execution-graphs`). */
  readonly id: string;
  readonly displayName: string;
  readonly description?: string;
  /** Route path under /engine (`/engine/execution-graphs`). */
  readonly path: string;
  /** Field name in /engine/snapshot, camelCase of the spec's name (`executionGraphs`). */
  readonly snapshotField: string;
  /** Field that identifies an entry for the by-id route; omit for catalogs with no by-id route. */
  readonly idField?: string;
  /** Schema of one entry, used to validate contributions and to document the routes. */
  readonly entrySchema: ZodType<T>;
  readonly narrowings?: readonly CatalogNarrowing<T>[];
  /** Parameterless filtered lists (`retry-pending`, `terminal-failures`), served before the by-id route. */
  readonly views?: readonly CatalogFilterView<T>[];
  /**
   * Live entries for catalogs whose content is runtime state supplied by a pack. Catalogs without `list`
   * publish the entries contributed through the builder (validated and resolved at build).
   */
  list?(): readonly T[];
  /** Checks references of contributed entries at build time; any problem fails the build. */
  resolve?(entries: readonly T[], context: CatalogResolutionContext): readonly CatalogProblem[];
  /** Presents a published entry at read time, adding live state (materialization, counters...). */
  present?(entry: T): unknown;
  /** Optional transformation applied to each contributed entry at build (e.g. stamping metadata). */
  publish?(entry: T, contribution: { readonly sourceModuleId: string | null }): T;
}

/** A runtime view over one registered catalog, as the engine publishes it. */
export interface CatalogView {
  readonly definition: CatalogDefinition<unknown>;
  entries(): readonly unknown[];
  find(id: string): unknown | undefined;
}

/** One column of an operator view: a label and the cell shown for an entry. */
export interface OperatorViewColumn<T = unknown> {
  readonly label: string;
  value(entry: T): string | number | boolean | null;
  /**
   * How a surface shows the cell: `text` (the default) as it is; `time` an ISO-8601 time, shown in local time
   * and UTC; `countdown` an ISO-8601 time, shown as the time left until it ("ends in 4 min 12 s"), ticking, and
   * as "ended" once past (a silence's end, a retry's next attempt).
   */
  readonly format?: 'text' | 'time' | 'countdown';
}

/**
 * One input of an {@link OperatorViewForm}. Its value is put into the operation's JSON body at `name`
 * (dot-separated: `matchers.dependencyId` makes `{ matchers: { dependencyId } }`); an empty optional field is
 * left out.
 */
export interface OperatorViewFormField {
  /** Where the value goes in the body, dot-separated. */
  readonly name: string;
  readonly label: string;
  /**
   * `text`: a line of text; `choice`: one of `choices`; `minutes-from-now`: a whole number of minutes, sent as the
   * ISO-8601 time that far from the moment the form is sent (a silence's end time).
   */
  readonly kind: 'text' | 'choice' | 'minutes-from-now';
  /** The form is not sent without it. Default false. */
  readonly required?: boolean;
  /** The values of a `choice` field. */
  readonly choices?: readonly string[];
  /** The value the field starts with (minutes for `minutes-from-now`). */
  readonly defaultValue?: string;
  /** A short help line shown under the field. */
  readonly hint?: string;
}

/**
 * Something an operator creates from a view (a silence from the silences view), carried out by calling a
 * registered operation with the form's values as its JSON body: the operation's own validation and authorization
 * apply, so offering a form grants nothing. The build fails when the operation is unknown or has path parameters.
 */
export interface OperatorViewForm {
  /** The operation called (`alerts.create-silence`). */
  readonly operationId: string;
  /** Short verb phrase for the form's heading and button (`New silence`). */
  readonly label: string;
  readonly description?: string;
  readonly fields: readonly OperatorViewFormField[];
}

/**
 * A list an operator should look at (captures lagging, indexes gone stale, invitations whose delivery needs
 * someone), declared by a pack with `builder.addOperatorView` and shown by operator surfaces such as
 * `@corekit/console`. It adds no route of its own, so it can never shadow a catalog's by-id route: the
 * surface reads `rows()` and links every row to the pack's own JSON routes.
 */
export interface OperatorViewDefinition<T = unknown> {
  /** Unique among operator views (`cdc-capture-attention`). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The JSON route holding the full data behind the view (`/engine/cdc-captures/runtime`). */
  readonly listPath: string;
  /** Field identifying a row. */
  readonly idField: string;
  /** Route of one row's JSON, `{field}` filled from the row (`/engine/cdc-captures/runtime/{cdcCaptureId}`). */
  readonly entryPath?: string;
  readonly columns: readonly OperatorViewColumn<T>[];
  /** What an operator can do to a row, through the pack's own operations (checked at build). */
  readonly actions?: readonly CatalogEntryAction[];
  /** What an operator can create from the view, through the pack's own operations (checked at build). */
  readonly forms?: readonly OperatorViewForm[];
  /**
   * Rows belong to tenants and a caller sees only those of tenants it may read: the surface asks the host's
   * authorizer about `policy` with the resource `{ tenantId, kind }` once per tenant among the rows, hides
   * the rows of every tenant refused and says how many it hid. Left out, every row is shown to whoever may
   * see the surface.
   */
  readonly tenantAuthorization?: OperatorViewTenantAuthorization<T>;
  /** The rows that want an operator now (empty when all is well). */
  rows(): readonly T[] | Promise<readonly T[]>;
}

/** How an operator view's rows are scoped to tenants (`OperatorViewDefinition.tenantAuthorization`). */
export interface OperatorViewTenantAuthorization<T = unknown> {
  /** The named policy a caller needs in a row's tenant: the policy of the pack's own route for those rows. */
  readonly policy: string;
  /** The resource kind asked about (the one the pack's route names: `tenant-invitation-delivery-observations`). */
  readonly kind?: string;
  /** The tenant a row belongs to. */
  tenantOf(row: T): string;
}
