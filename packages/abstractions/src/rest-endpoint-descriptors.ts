import { z } from 'zod';
import { multiplePublishedCandidatesAnswers, restAuthoringStyles, restMethods } from './rest-publication';

/**
 * zod schemas of the six REST publication catalogs (spec 2.4 and 4.2): candidates, authoring policies,
 * suppressions, overrides, publication groups and the published endpoints. Fields are camelCase.
 */

const style = z.enum(restAuthoringStyles);
const ids = z.array(z.string());

/** The route as a candidate declared it, or as it is after host overrides. */
export const restEndpointMetadataSchema = z.object({
  method: z.enum(restMethods),
  /** Full path in express syntax (`/api/orders/:id`). */
  path: z.string(),
  endpointName: z.string(),
  tags: ids,
  openApiDocumentNames: ids,
  apiMajorVersion: z.number().int(),
  summary: z.string().nullable(),
  successStatus: z.number().int(),
});
export type RestEndpointMetadata = z.infer<typeof restEndpointMetadataSchema>;

/** An explicit binding of an endpoint to a behavior, as the author wrote it. */
export const restTargetBindingSchema = z.object({
  kind: z.literal('behavior'),
  behaviorId: z.string(),
  moduleId: z.string(),
});

/**
 * Whether host rules may change a candidate: `not-opted-in` (an explicit route group without scopes: it stays
 * authoritative), `declared-only` (scopes declared, host governance not allowed yet), `host-governed`.
 */
export const restHostGovernanceSchema = z.enum(['not-opted-in', 'declared-only', 'host-governed']);

/** What a host rule matched on, most specific first; a rule's basis is its most specific criterion. */
export const restSelectionBases = [
  'behavior',
  'route-group',
  'module',
  'tag',
  'scope',
  'authoring-style',
  'api-major-version',
] as const;
export const restSelectionBasisSchema = z.enum(restSelectionBases);
export type RestSelectionBasis = z.infer<typeof restSelectionBasisSchema>;

/** Why a matching host rule did not act on a candidate. */
export const restRuleSkipReasonSchema = z.enum([
  'route-group-not-opted-in',
  'host-governance-not-allowed',
  'candidate-filtered-by-policy',
  'candidate-suppressed',
  'another-rule-selected',
]);

/** A rule's criteria; every non-empty list must contain the candidate's value (route groups by id or prefix). */
export const restRuleMatchSchema = z.object({
  modules: ids,
  behaviors: ids,
  routeGroups: ids,
  tags: ids,
  scopes: ids,
  styles: z.array(style),
  apiMajorVersions: z.array(z.number().int()),
});

const skippedRule = z.object({
  ruleId: z.string(),
  kind: z.enum(['suppression', 'override']),
  reason: restRuleSkipReasonSchema,
});
const skippedCandidate = z.object({ candidateId: z.string(), reason: restRuleSkipReasonSchema });
const basisSummary = z.array(z.object({ basis: restSelectionBasisSchema, candidateIds: ids }));

/** Ownership of a published endpoint (spec 2.4). */
export const restPublicationOwnershipSchema = z.object({
  publicationActivation: z.literal('application-managed'),
  profileMetadata: z.literal('application-managed'),
  materialization: z.literal('core-managed'),
  runtimeCatalogTruth: z.literal('core-managed'),
});

/** `/engine/rest-endpoint-candidates`: every route any authoring style proposed, and what became of it. */
export const restEndpointCandidateSchema = z.object({
  candidateId: z.string(),
  publicationGroupId: z.string(),
  authoringStyle: style,
  restPublicationActivationMode: style,
  /** `route-group-endpoint`, `rest-resource`, `inline-helper`, `profile-shorthand` or `configuration-profile`. */
  sourceShape: z.string(),
  /** The declaration as written (`routeGroup("/api").restResource("orders").get`, `Engine:Rest:Profiles:partner:Routes:0`). */
  source: z.string(),
  behaviorId: z.string(),
  /** The module that owns the behavior. */
  sourceModuleId: z.string(),
  /** The module whose `rest` declared the route; null for a profile mapping in host configuration. */
  declaringModuleId: z.string().nullable(),
  routeGroupId: z.string(),
  routeGroupPrefix: z.string().nullable(),
  hostGovernanceScopes: ids,
  hostGovernance: restHostGovernanceSchema,
  originalMetadata: restEndpointMetadataSchema,
  targetBindings: z.array(restTargetBindingSchema),
  policyOutcome: z.enum([
    'allowed',
    'disallowed-style',
    'style-not-allowed',
    'superseded-by-preferred-style',
  ]),
  matchedRuleIds: ids,
  skippedRules: z.array(skippedRule),
  selectedSuppressionId: z.string().nullable(),
  suppressionSelectionBasis: restSelectionBasisSchema.nullable(),
  selectedOverrideId: z.string().nullable(),
  overrideSelectionBasis: restSelectionBasisSchema.nullable(),
  /** Null when no override was selected, or when the selected one changed nothing (spec 3.3 rule 4). */
  appliedOverrideId: z.string().nullable(),
  appliedChanges: ids,
  effectiveMetadata: restEndpointMetadataSchema,
  outcome: z.enum(['published', 'filtered-by-policy', 'suppressed', 'superseded']),
});
export type RestEndpointCandidateDescriptor = z.infer<typeof restEndpointCandidateSchema>;

/** `/engine/rest-endpoint-authoring-policies`: one entry per behavior; read-only, declared in module code. */
export const restEndpointAuthoringPolicySchema = z.object({
  behaviorId: z.string(),
  sourceModuleId: z.string(),
  /** False when the behavior declared no `restAuthoring` and the defaults apply. */
  declared: z.boolean(),
  preferredStyle: style.nullable(),
  allowedStyles: z.array(style),
  disallowedStyles: z.array(style),
  multiplePublishedCandidates: z.enum(multiplePublishedCandidatesAnswers),
  /** Allowed minus disallowed, in precedence order. */
  effectiveStyles: z.array(style),
  candidateIds: ids,
  filteredCandidateIds: ids,
  /** Candidates that passed style filtering and host suppressions, before the multiple-candidate answer. */
  wouldPublishCandidateIds: ids,
  publishedCandidateIds: ids,
  supersededCandidateIds: ids,
});
export type RestEndpointAuthoringPolicyDescriptor = z.infer<typeof restEndpointAuthoringPolicySchema>;

/** `/engine/rest-endpoint-suppressions`: host suppression rules with their outcomes. */
export const restEndpointSuppressionSchema = z.object({
  id: z.string(),
  /** The configuration key that declared it. */
  source: z.string(),
  reason: z.string().nullable(),
  match: restRuleMatchSchema,
  matchedCandidateIds: ids,
  suppressedCandidateIds: ids,
  skipped: z.array(skippedCandidate),
  outcome: z.enum(['suppressed', 'matched-but-skipped', 'unmatched']),
  selectionBasisSummary: basisSummary,
});
export type RestEndpointSuppressionDescriptor = z.infer<typeof restEndpointSuppressionSchema>;
export type RestRuleSkipReason = z.infer<typeof restRuleSkipReasonSchema>;

const overrideAction = z.object({
  method: z.enum(restMethods).nullable(),
  path: z.string().nullable(),
  apiMajorVersion: z.number().int().nullable(),
  tags: ids.nullable(),
  openApiDocumentNames: ids.nullable(),
  endpointName: z.string().nullable(),
});

/** `/engine/rest-endpoint-overrides`: host override rules with their outcomes. */
export const restEndpointOverrideSchema = z.object({
  id: z.string(),
  source: z.string(),
  priority: z.number().int(),
  match: restRuleMatchSchema,
  declaredAction: overrideAction,
  /** Fields the rule declares. */
  declaredFields: ids,
  /** Fields it actually changed on at least one candidate. */
  effectiveFields: ids,
  matchedCandidateIds: ids,
  selectedCandidateIds: ids,
  appliedCandidateIds: ids,
  /** Selected but changing nothing: SelectedOverrideId set, AppliedOverrideId null (spec 3.3 rule 4). */
  unchangedCandidateIds: ids,
  skipped: z.array(skippedCandidate),
  effectiveActions: z.array(z.object({ candidateId: z.string(), changedFields: ids })),
  outcome: z.enum(['applied', 'selected-without-change', 'matched-but-skipped', 'unmatched']),
  selectionBasisSummary: basisSummary,
});
export type RestEndpointOverrideDescriptor = z.infer<typeof restEndpointOverrideSchema>;

/** `/engine/rest-endpoint-publication-groups`: one entry per behavior and authoring style. */
export const restEndpointPublicationGroupSchema = z.object({
  id: z.string(),
  behaviorId: z.string(),
  sourceModuleId: z.string(),
  authoringStyle: style,
  candidateIds: ids,
  publishedCandidateIds: ids,
  suppressedCandidateIds: ids,
  filteredCandidateIds: ids,
  supersededCandidateIds: ids,
  routeGroupIds: ids,
  /** Explicit route groups that did not opt into host governance, so host rules cannot touch them. */
  authoritativeRouteGroupIds: ids,
  /** Host rules that matched but were skipped because the route group did not opt in (or does not allow it yet). */
  skippedHostRules: z.array(skippedRule.extend({ candidateId: z.string() })),
  /** Styles that published this behavior, across all its groups. */
  publishedStyles: z.array(style),
  outcome: z.enum(['published', 'not-published']),
});
export type RestEndpointPublicationGroupDescriptor = z.infer<typeof restEndpointPublicationGroupSchema>;

/** `/engine/rest-endpoints`: the final published endpoints (spec 2.4 field list, camelCase). */
export const restEndpointSchema = z.object({
  id: z.string(),
  candidateId: z.string(),
  publicationGroupId: z.string(),
  authoringStyle: style,
  restPublicationActivationMode: style,
  behaviorId: z.string(),
  sourceModuleId: z.string(),
  declaringModuleId: z.string().nullable(),
  routeGroupId: z.string(),
  method: z.enum(restMethods),
  path: z.string(),
  endpointName: z.string(),
  apiMajorVersion: z.number().int(),
  summary: z.string().nullable(),
  successStatus: z.number().int(),
  originalMetadata: restEndpointMetadataSchema,
  hostGovernanceScopes: ids,
  endpointNames: ids,
  targetBindings: z.array(restTargetBindingSchema),
  routeGroupPrefixes: ids,
  openApiDocumentNames: ids,
  tagNames: ids,
  httpMethods: z.array(z.enum(restMethods)),
  effectiveApiMajorVersions: z.array(z.number().int()),
  selectedOverrideId: z.string().nullable(),
  overrideSelectionBasis: restSelectionBasisSchema.nullable(),
  appliedOverrideId: z.string().nullable(),
  ownership: restPublicationOwnershipSchema,
});
export type RestEndpointDescriptor = z.infer<typeof restEndpointSchema>;
