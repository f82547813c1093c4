import { z } from 'zod';
import {
  isSecretSchema,
  observabilityEventIds,
  probeEventIds,
  type DependencyCheckResult,
  type DependencyHealthContributor,
  type EngineBuilder,
} from '@corekit/abstractions';
import { dependencyEntryCommonShape, probeSectionBaseShape } from './probe-section-schema';
import { describeError } from './describe-error';
import { unhealthy } from './probe-results';
import { redactValue, secretsInConnectionString } from './secret-redaction';

type CommonShape = typeof dependencyEntryCommonShape;

/** The common fields of a validated dependency entry (DisplayName already defaulted to Id). */
export type ProbeEntryCommon = {
  readonly Id: string;
  readonly DisplayName: string;
  readonly Required: boolean;
  readonly TimeoutSeconds: number;
};

/** One validated dependency entry of a kind: the common fields plus the kind's. */
export type ProbeEntry<TShape extends z.ZodRawShape> = ProbeEntryCommon & z.output<z.ZodObject<TShape>>;

interface ValidatedSection {
  readonly RefreshIntervalSeconds: number;
  readonly Dependencies: ReadonlyArray<Record<string, unknown> & { Id: string; DisplayName?: string }>;
}

function withDisplayName<T>(raw: Record<string, unknown> & { Id: string; DisplayName?: string }): T {
  return { ...raw, DisplayName: raw.DisplayName ?? raw.Id } as T;
}

/** One dependency in code options: an Id plus any fields to set or override. */
export type ProbeDependencyOptions<TShape extends z.ZodRawShape> = { Id: string } & Partial<
  z.input<z.ZodObject<CommonShape & TShape>>
>;

/**
 * Code options of an `add<Kind>Health` call, in the configuration's PascalCase shape. They are merged over
 * the section `Engine:Observability:DependencyHealth:<Kind>`: code wins per field, dependencies are
 * matched by Id and new ones appended.
 */
export interface ProbeOptions<TShape extends z.ZodRawShape = z.ZodRawShape> {
  readonly RefreshIntervalSeconds?: number;
  readonly Dependencies?: ReadonlyArray<ProbeDependencyOptions<TShape>>;
}

/** What a check receives besides its entry. */
export interface ProbeContext {
  /** Aborted by the engine when TimeoutSeconds passes or the engine stops; destroy the client then. */
  readonly signal: AbortSignal;
  /** TimeoutSeconds in milliseconds, for drivers that take their own timeout. */
  readonly timeoutMs: number;
  /** Full configuration path of the entry (`Engine:Observability:DependencyHealth:Redis:Dependencies:0`). */
  readonly entryPath: string;
}

/** A probe kind: its section key, entry fields and the check. defineProbe turns it into `add<Kind>Health`. */
export interface ProbeDefinition<TShape extends z.ZodRawShape> {
  /** Section key, the technology's own name (`PostgreSql`); also selects the event ids (spec 6). */
  readonly kind: string;
  /** Kind-specific entry fields, merged with the common ones. Secrets use `secretString()`. */
  readonly entryShape: TShape;
  /** Cross-field rules (an endpoint is required...); `issue` fails registration at `<entry path>:<field>`. */
  validateEntry?(entry: ProbeEntry<TShape>, issue: (field: string, message: string) => void): void;
  /** A safe, secret-free label of the upstream (`host:port/db`), published as `data.target`. */
  describeTarget?(entry: ProbeEntry<TShape>): string;
  /** Secret values that are not in a `secretString()` field (a token inside a header, say). */
  secretValues?(entry: ProbeEntry<TShape>): readonly string[];
  /**
   * Runs one check on a dedicated connection and releases it before settling. Throwing is fine: the error
   * becomes an Unhealthy result through describeError. Results are scrubbed of configured secrets.
   */
  check(entry: ProbeEntry<TShape>, context: ProbeContext): Promise<DependencyCheckResult>;
}

/** The section path of a kind. */
export function probeSectionPath(kind: string): string {
  return `Engine:Observability:DependencyHealth:${kind}`;
}

/** The zod schema of a kind's whole section (useful for docs and tests). */
export function probeSectionSchema<TShape extends z.ZodRawShape>(
  definition: Pick<ProbeDefinition<TShape>, 'entryShape' | 'validateEntry'>,
) {
  const entrySchema = z.object({ ...dependencyEntryCommonShape, ...definition.entryShape } as CommonShape &
    TShape);
  return z
    .object({ ...probeSectionBaseShape, Dependencies: z.array(entrySchema).default([]) })
    .superRefine((parsed, context) => {
      const section = parsed as unknown as ValidatedSection;
      const firstIndexById = new Map<string, number>();
      section.Dependencies.forEach((raw, index) => {
        const entry = withDisplayName<ProbeEntry<TShape>>(raw);
        const previous = firstIndexById.get(entry.Id);
        if (previous !== undefined) {
          context.addIssue({
            code: 'custom',
            path: ['Dependencies', index, 'Id'],
            message: `duplicates the Id "${entry.Id}" of Dependencies:${previous}; every dependency of a kind needs its own Id`,
          });
        } else {
          firstIndexById.set(entry.Id, index);
        }
        definition.validateEntry?.(entry, (field, message) =>
          context.addIssue({ code: 'custom', path: ['Dependencies', index, ...field.split(':')], message }),
        );
      });
    });
}

function secretsOf<TShape extends z.ZodRawShape>(
  definition: ProbeDefinition<TShape>,
  entry: ProbeEntry<TShape>,
): string[] {
  const secrets = new Set<string>();
  for (const [field, schema] of Object.entries(definition.entryShape)) {
    const value = (entry as Record<string, unknown>)[field];
    if (typeof value === 'string' && value && isSecretSchema(schema)) secrets.add(value);
  }
  for (const value of Object.values(entry)) {
    if (typeof value === 'string') for (const secret of secretsInConnectionString(value)) secrets.add(secret);
  }
  for (const secret of definition.secretValues?.(entry) ?? []) if (secret) secrets.add(secret);
  return [...secrets];
}

/**
 * Turns a probe definition into its `add<Kind>Health(builder, options?)` function. The call binds the
 * section through `builder.configuration.bind` (code options merged by Id; CONFIGURATION_INVALID with the
 * full key path; unknown keys refused when the engine starts), registers the secrets, and adds one
 * dependency-health contributor per entry with the kind's event ids. A section with no dependencies is a
 * registration warning (PROBE_NO_DEPENDENCIES, the kind's first event id), not an error. Calling it again
 * does not register an Id of the kind twice.
 */
export function defineProbe<TShape extends z.ZodRawShape>(definition: ProbeDefinition<TShape>) {
  const schema = probeSectionSchema(definition);
  const sectionPath = probeSectionPath(definition.kind);
  const eventIds = probeEventIds[definition.kind];

  return function addProbe<TBuilder extends EngineBuilder>(
    builder: TBuilder,
    options?: ProbeOptions<TShape>,
  ): TBuilder {
    builder.declarePack({ packageName: '@corekit/probe-kit', specificationVersion: 1 });
    // The engine's binder merges the code options (by Id), validates and registers secretString() values.
    const section = builder.configuration.bind(
      sectionPath,
      schema,
      options ?? {},
    ) as unknown as ValidatedSection;
    if (section.Dependencies.length === 0) {
      builder.addWarning({
        code: 'PROBE_NO_DEPENDENCIES',
        message: `add${definition.kind}Health found no dependencies under ${sectionPath}:Dependencies (nor in code options); no ${definition.kind} dependency is checked`,
        keyPath: `${sectionPath}:Dependencies`,
        eventId: eventIds?.healthy ?? observabilityEventIds.dependencyHealthChanged,
      });
    }
    section.Dependencies.forEach((raw, index) => {
      const entry = withDisplayName<ProbeEntry<TShape>>(raw);
      const registrationKey = `dependency-health:${definition.kind}:${entry.Id}`;
      if (builder.hasRegistration(registrationKey)) return;
      builder.markRegistration(registrationKey);
      const secrets = secretsOf(definition, entry);
      for (const secret of secrets) builder.addSecret(secret);
      // Like the engine's log redaction, values under 3 characters are not scrubbed from results: replacing
      // every "a" would garble the text and protect nothing.
      const scrubbed = secrets.filter((secret) => secret.length >= 3);
      const target = definition.describeTarget
        ? redactValue(definition.describeTarget(entry), scrubbed)
        : undefined;
      const entryPath = `${sectionPath}:Dependencies:${index}`;
      const timeoutMs = entry.TimeoutSeconds * 1000;
      const contributor: DependencyHealthContributor = {
        id: entry.Id,
        displayName: entry.DisplayName,
        required: entry.Required,
        kind: definition.kind,
        refreshIntervalSeconds: section.RefreshIntervalSeconds,
        timeoutSeconds: entry.TimeoutSeconds,
        ...(target !== undefined ? { target } : {}),
        ...(eventIds ? { eventIds } : {}),
        async check(signal: AbortSignal): Promise<DependencyCheckResult> {
          let result: DependencyCheckResult;
          try {
            result = await definition.check(entry, { signal, timeoutMs, entryPath });
          } catch (error) {
            const described = describeError(error);
            result = unhealthy(described.code, described.message);
          }
          if (target !== undefined) result = { ...result, data: { target, ...result.data } };
          return redactValue(result, scrubbed);
        },
      };
      builder.addDependencyHealthContributor(contributor);
    });
    return builder;
  };
}
