import { CoreError, restAuthoringStyles, restMethods, type ConfigurationReader } from '@corekit/abstractions';
import { z } from 'zod';

const ruleId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be an id (letters, digits, . _ : -)');
const names = z.array(z.string().min(1)).default([]);
const documentName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a document name (letters, digits, . _ -)');
const apiMajorVersion = z.number().int().min(1);

/**
 * What a host rule matches. Selectors (Modules, Behaviors, RouteGroups, Tags, Scopes) are alternatives: the
 * rule matches a candidate when any one of them names it. Qualifiers (Styles, Versions) narrow: when given,
 * the candidate's authoring style and API major version must be listed. At least one criterion is required.
 * RouteGroups lists route group ids (`orders:api`, `profile:partner`) or prefixes (`/api`).
 */
export const restRuleMatchOptionsSchema = z
  .object({
    Modules: names,
    Behaviors: names,
    RouteGroups: names,
    Tags: names,
    Scopes: names,
    Styles: z.array(z.enum(restAuthoringStyles)).default([]),
    Versions: z.array(apiMajorVersion).default([]),
  })
  .refine((match) => Object.values(match).some((list) => list.length > 0), {
    message: 'needs at least one of Modules, Behaviors, RouteGroups, Tags, Scopes, Styles or Versions',
  });
export type RestRuleMatchOptions = z.infer<typeof restRuleMatchOptionsSchema>;

/** `Engine:Rest:Governance:Suppressions:<n>`: hides matching candidates of host-governed routes. */
export const restSuppressionOptionsSchema = z.object({
  Id: ruleId,
  Match: restRuleMatchOptionsSchema,
  /** Why, for operators reading `/engine/rest-endpoint-suppressions`. */
  Reason: z.string().optional(),
});

/** `Engine:Rest:Governance:Overrides:<n>`: changes the published answer of matching host-governed candidates. */
export const restOverrideOptionsSchema = z.object({
  Id: ruleId,
  Match: restRuleMatchOptionsSchema,
  /** Breaks ties between overrides of the same specificity; higher wins. Default 0. */
  Priority: z.number().int().default(0),
  Set: z
    .object({
      Method: z.enum(restMethods).optional(),
      /** Full path (`/partner/orders/:id`). */
      Path: z.string().optional(),
      Version: apiMajorVersion.optional(),
      /** Replaces the tags. */
      Tags: z.array(z.string().min(1)).optional(),
      /** Replaces the OpenAPI document names. */
      Documents: z.array(documentName).optional(),
      EndpointName: z.string().min(1).optional(),
    })
    .refine((set) => Object.values(set).some((value) => value !== undefined), {
      message: 'needs at least one of Method, Path, Version, Tags, Documents or EndpointName',
    }),
});

/** `Engine:Rest:Governance`. */
export const restGovernanceOptionsSchema = z.object({
  Suppressions: z.array(restSuppressionOptionsSchema).default([]),
  Overrides: z.array(restOverrideOptionsSchema).default([]),
});

/** One route of a profile mapping: a behavior id mapped to a method and path. */
export const restProfileRouteOptionsSchema = z.object({
  Behavior: z.string().min(1),
  Method: z.enum(restMethods),
  /** Relative to the profile's Prefix (or absolute without one). */
  Path: z.string(),
  /** Endpoint name (OpenAPI operationId). Default: the behavior id. */
  Name: z.string().min(1).optional(),
  Tags: z.array(z.string().min(1)).default([]),
  Summary: z.string().optional(),
  /** Default 200. */
  SuccessStatus: z.number().int().min(200).max(299).default(200),
});

/** `Engine:Rest:Profiles:<name>`: a profile mapping in host configuration (authoring style `profile-mapping`). */
export const restProfileOptionsSchema = z.object({
  /** Default true; false keeps the profile in configuration without publishing it. */
  Enabled: z.boolean().default(true),
  Prefix: z.string().default(''),
  /** API major version. Default 1. */
  Version: apiMajorVersion.default(1),
  Tags: names,
  /** OpenAPI document names. Default `["default"]`. */
  Documents: z.array(documentName).default(['default']),
  /** Host governance scopes, visible in the catalogs and matchable by rules. */
  Scopes: names,
  Routes: z.array(restProfileRouteOptionsSchema).min(1),
});

export type RestGovernanceOptions = z.infer<typeof restGovernanceOptionsSchema>;
export type RestSuppressionOptions = z.infer<typeof restSuppressionOptionsSchema>;
export type RestOverrideOptions = z.infer<typeof restOverrideOptionsSchema>;
export type RestProfileOptions = z.infer<typeof restProfileOptionsSchema>;

/** `Engine:Rest` after validation: the profiles by name and the governance rules. */
export interface RestPublicationOptions {
  readonly profiles: ReadonlyArray<{ readonly name: string; readonly options: RestProfileOptions }>;
  readonly governance: RestGovernanceOptions;
}

/** Binds and validates `Engine:Rest`; throws CONFIGURATION_INVALID naming the full key path of every problem. */
export function bindRestPublicationOptions(configuration: ConfigurationReader): RestPublicationOptions {
  const section = configuration.getSection('Engine:Rest:Profiles');
  const problems: string[] = [];
  const profiles: Array<{ name: string; options: RestProfileOptions }> = [];
  if (section !== undefined && (section === null || typeof section !== 'object' || Array.isArray(section))) {
    problems.push('Engine:Rest:Profiles must be an object keyed by profile name');
  } else {
    for (const name of Object.keys(section ?? {})) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
        problems.push(`Engine:Rest:Profiles:${name}: a profile name must use letters, digits, . _ - only`);
        continue;
      }
      try {
        profiles.push({
          name,
          options: configuration.bind(`Engine:Rest:Profiles:${name}`, restProfileOptionsSchema),
        });
      } catch (error) {
        problems.push(...problemsOf(error));
      }
    }
  }
  let governance: RestGovernanceOptions = { Suppressions: [], Overrides: [] };
  try {
    governance = configuration.bind('Engine:Rest:Governance', restGovernanceOptionsSchema);
  } catch (error) {
    problems.push(...problemsOf(error));
  }
  const seen = new Map<string, string>();
  const rules = [
    ...governance.Suppressions.map(
      (rule, index) => [rule.Id, `Engine:Rest:Governance:Suppressions:${index}:Id`] as const,
    ),
    ...governance.Overrides.map(
      (rule, index) => [rule.Id, `Engine:Rest:Governance:Overrides:${index}:Id`] as const,
    ),
  ];
  for (const [id, key] of rules) {
    const previous = seen.get(id);
    if (previous)
      problems.push(
        `${key} repeats the rule id "${id}" of ${previous}; rule ids must be unique across suppressions and overrides`,
      );
    seen.set(id, key);
  }
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: 'Engine:Rest',
      problems,
    });
  }
  return { profiles, governance };
}

function problemsOf(error: unknown): string[] {
  const problems = (error as CoreError)?.details?.problems;
  if (Array.isArray(problems)) return problems.map(String);
  throw error;
}
