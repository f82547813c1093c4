import {
  CoreError,
  type ModuleDefinition,
  type RestEndpointAuthoringPolicyDescriptor,
  type RestEndpointCandidateDescriptor,
  type RestEndpointDescriptor,
  type RestEndpointOverrideDescriptor,
  type RestEndpointPublicationGroupDescriptor,
  type RestEndpointSuppressionDescriptor,
} from '@corekit/abstractions';
import type { BehaviorRegistry } from './behavior-registry';
import {
  effectivePolicy,
  resolveMultiple,
  styleOutcome,
  type EffectiveAuthoringPolicy,
} from './rest-authoring-policies';
import { collectCandidates, duplicateCandidateProblems, type RestCandidateDraft } from './rest-candidates';
import { applyGovernance, overrideProblems } from './rest-governance';
import { publicationGroups } from './rest-publication-groups';
import type { RestPublicationOptions } from './rest-publication-options';
import { reservedPrefixOf, routeKey, routeParameters } from './rest-route-paths';

/** The six REST catalogs, as computed once when the engine is built. */
export interface RestPublicationResult {
  readonly candidates: readonly RestEndpointCandidateDescriptor[];
  readonly policies: readonly RestEndpointAuthoringPolicyDescriptor[];
  readonly suppressions: readonly RestEndpointSuppressionDescriptor[];
  readonly overrides: readonly RestEndpointOverrideDescriptor[];
  readonly groups: readonly RestEndpointPublicationGroupDescriptor[];
  readonly endpoints: readonly RestEndpointDescriptor[];
}

export const emptyRestPublication: RestPublicationResult = {
  candidates: [],
  policies: [],
  suppressions: [],
  overrides: [],
  groups: [],
  endpoints: [],
};

/** Stable codes of the build failures of REST publication. */
export const restPublicationErrorCodes = {
  invalid: 'REST_PUBLICATION_INVALID',
  policyViolated: 'REST_AUTHORING_POLICY_VIOLATED',
  conflict: 'REST_ENDPOINT_CONFLICT',
} as const;

function fail(code: string, heading: string, problems: readonly string[]): never {
  throw new CoreError(code, `${heading}:\n- ${problems.join('\n- ')}`, { problems: [...problems] });
}

/**
 * Runs the pipeline: candidates from the four authoring styles, behavior authoring policies (style filtering),
 * host suppressions and overrides, the multiple-published-candidate answer, then the final endpoints. Throws
 * REST_PUBLICATION_INVALID, REST_AUTHORING_POLICY_VIOLATED or REST_ENDPOINT_CONFLICT (naming both sources).
 */
export function runRestPublication(
  modules: readonly ModuleDefinition[],
  behaviors: BehaviorRegistry,
  options: RestPublicationOptions,
): RestPublicationResult {
  const collected = collectCandidates(modules, behaviors, options);
  const drafts = collected.candidates;
  const problems = [
    ...collected.problems,
    ...duplicateCandidateProblems(drafts),
    ...overrideProblems(options.governance),
  ];
  if (problems.length > 0)
    fail(
      restPublicationErrorCodes.invalid,
      'The engine cannot be built; REST publication problems',
      problems,
    );

  const policies = new Map<string, EffectiveAuthoringPolicy>(
    behaviors.behaviors().map((entry) => [entry.behavior.id, effectivePolicy(entry)]),
  );
  const policyOutcomes = new Map(
    drafts.map((draft) => [
      draft.candidateId,
      styleOutcome(policies.get(draft.behaviorId)!, draft.authoringStyle),
    ]),
  );
  const governed = applyGovernance(
    drafts.map((draft) => ({ ...draft, policyAllowed: policyOutcomes.get(draft.candidateId) === 'allowed' })),
    options.governance,
  );

  const superseded = new Set<string>();
  const wouldPublishByBehavior = new Map<string, RestCandidateDraft[]>();
  for (const draft of drafts) {
    if (
      policyOutcomes.get(draft.candidateId) !== 'allowed' ||
      governed.results.get(draft.candidateId)!.selectedSuppressionId
    )
      continue;
    wouldPublishByBehavior.set(draft.behaviorId, [
      ...(wouldPublishByBehavior.get(draft.behaviorId) ?? []),
      draft,
    ]);
  }
  const violations: string[] = [];
  for (const [behaviorId, wouldPublish] of wouldPublishByBehavior) {
    const resolution = resolveMultiple(policies.get(behaviorId)!, wouldPublish);
    if (resolution.problem) violations.push(resolution.problem);
    for (const candidate of resolution.superseded) superseded.add(candidate.candidateId);
  }
  if (violations.length > 0)
    fail(
      restPublicationErrorCodes.policyViolated,
      'The engine cannot be built; REST authoring policies refuse the candidates',
      violations,
    );

  const candidates: RestEndpointCandidateDescriptor[] = drafts.map((draft) => {
    const governance = governed.results.get(draft.candidateId)!;
    const policyOutcome = superseded.has(draft.candidateId)
      ? 'superseded-by-preferred-style'
      : policyOutcomes.get(draft.candidateId)!;
    const outcome =
      policyOutcome === 'superseded-by-preferred-style'
        ? 'superseded'
        : policyOutcome !== 'allowed'
          ? 'filtered-by-policy'
          : governance.selectedSuppressionId
            ? 'suppressed'
            : 'published';
    return {
      ...draft,
      publicationGroupId: `${draft.behaviorId}:${draft.authoringStyle}`,
      restPublicationActivationMode: draft.authoringStyle,
      policyOutcome,
      ...governance,
      outcome,
    };
  });

  const endpoints = candidates.filter((candidate) => candidate.outcome === 'published').map(toEndpoint);
  checkPublishedRoutes(endpoints, candidates, behaviors);

  return {
    candidates,
    policies: [...policies.values()].map((policy) => {
      const own = candidates.filter((candidate) => candidate.behaviorId === policy.behaviorId);
      const ids = (keep: (candidate: RestEndpointCandidateDescriptor) => boolean) =>
        own.filter(keep).map((candidate) => candidate.candidateId);
      return {
        ...policy,
        candidateIds: ids(() => true),
        filteredCandidateIds: ids((candidate) => candidate.outcome === 'filtered-by-policy'),
        wouldPublishCandidateIds: ids(
          (candidate) => candidate.outcome === 'published' || candidate.outcome === 'superseded',
        ),
        publishedCandidateIds: ids((candidate) => candidate.outcome === 'published'),
        supersededCandidateIds: ids((candidate) => candidate.outcome === 'superseded'),
      };
    }),
    suppressions: governed.suppressions,
    overrides: governed.overrides,
    groups: publicationGroups(candidates),
    endpoints,
  };
}

function toEndpoint(candidate: RestEndpointCandidateDescriptor): RestEndpointDescriptor {
  const effective = candidate.effectiveMetadata;
  return {
    id: candidate.candidateId,
    candidateId: candidate.candidateId,
    publicationGroupId: candidate.publicationGroupId,
    authoringStyle: candidate.authoringStyle,
    restPublicationActivationMode: candidate.restPublicationActivationMode,
    behaviorId: candidate.behaviorId,
    sourceModuleId: candidate.sourceModuleId,
    declaringModuleId: candidate.declaringModuleId,
    routeGroupId: candidate.routeGroupId,
    method: effective.method,
    path: effective.path,
    endpointName: effective.endpointName,
    apiMajorVersion: effective.apiMajorVersion,
    summary: effective.summary,
    successStatus: effective.successStatus,
    originalMetadata: candidate.originalMetadata,
    hostGovernanceScopes: [...candidate.hostGovernanceScopes],
    endpointNames: [effective.endpointName],
    targetBindings: candidate.targetBindings,
    routeGroupPrefixes: candidate.routeGroupPrefix ? [candidate.routeGroupPrefix] : [],
    openApiDocumentNames: [...effective.openApiDocumentNames],
    tagNames: [...effective.tags],
    httpMethods: [effective.method],
    effectiveApiMajorVersions: [effective.apiMajorVersion],
    selectedOverrideId: candidate.selectedOverrideId,
    overrideSelectionBasis: candidate.overrideSelectionBasis,
    appliedOverrideId: candidate.appliedOverrideId,
    ownership: {
      publicationActivation: 'application-managed',
      profileMetadata: 'application-managed',
      materialization: 'core-managed',
      runtimeCatalogTruth: 'core-managed',
    },
  };
}

/** Fields of an object input schema; undefined for other schemas (nothing to check). */
function inputFields(behaviors: BehaviorRegistry, behaviorId: string): string[] | undefined {
  const shape = (
    behaviors.find(behaviorId)?.behavior.input as { shape?: Record<string, unknown> } | undefined
  )?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : undefined;
}

/**
 * Reserved host prefixes and path parameters the behavior input does not have (every request would be refused),
 * then method-and-path conflicts between published candidates (both sources named).
 */
function checkPublishedRoutes(
  endpoints: readonly RestEndpointDescriptor[],
  candidates: readonly RestEndpointCandidateDescriptor[],
  behaviors: BehaviorRegistry,
): void {
  const sourceOf = (candidateId: string) =>
    candidates.find((candidate) => candidate.candidateId === candidateId)!.source;
  const overridden = (endpoint: RestEndpointDescriptor) =>
    endpoint.appliedOverrideId ? ` after override "${endpoint.appliedOverrideId}"` : '';
  const invalid = endpoints.flatMap((endpoint) => {
    const problems: string[] = [];
    const prefix = reservedPrefixOf(endpoint.path);
    if (prefix) {
      problems.push(
        `${sourceOf(endpoint.candidateId)} publishes ${endpoint.method} ${endpoint.path}${overridden(endpoint)}, under ${prefix}, which the host serves itself; choose another path`,
      );
    }
    const fields = inputFields(behaviors, endpoint.behaviorId);
    const missing = fields
      ? routeParameters(endpoint.path).filter((parameter) => !fields.includes(parameter))
      : [];
    if (missing.length > 0) {
      problems.push(
        `${sourceOf(endpoint.candidateId)} publishes ${endpoint.method} ${endpoint.path}${overridden(endpoint)}, but the input of behavior "${endpoint.behaviorId}" has no field ${missing.map((name) => `"${name}"`).join(', ')} (its fields: ${fields!.join(', ') || 'none'}); name the path parameter after an input field (restResource and restProfile take idParameter)`,
      );
    }
    return problems;
  });
  if (invalid.length > 0)
    fail(restPublicationErrorCodes.invalid, 'The engine cannot be built; REST publication problems', invalid);

  const claimed = new Map<string, RestEndpointDescriptor>();
  const conflicts: string[] = [];
  for (const endpoint of endpoints) {
    const key = routeKey(endpoint.method, endpoint.path);
    const first = claimed.get(key);
    if (!first) {
      claimed.set(key, endpoint);
      continue;
    }
    conflicts.push(
      `candidate "${first.candidateId}" (${sourceOf(first.candidateId)}${overridden(first)}) publishes ${first.method} ${first.path} and candidate "${endpoint.candidateId}" (${sourceOf(endpoint.candidateId)}${overridden(endpoint)}) publishes ${endpoint.method} ${endpoint.path}: the same method and path; change one path, suppress one (Engine:Rest:Governance:Suppressions) or give the behavior an authoring policy`,
    );
  }
  if (conflicts.length > 0)
    fail(
      restPublicationErrorCodes.conflict,
      'The engine cannot be built; two published REST endpoints claim the same method and path',
      conflicts,
    );
}
