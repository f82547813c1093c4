import {
  restSelectionBases,
  type RestEndpointMetadata,
  type RestEndpointOverrideDescriptor as OverrideEntry,
  type RestEndpointSuppressionDescriptor as SuppressionEntry,
  type RestRuleSkipReason as SkipReason,
  type RestSelectionBasis,
} from '@corekit/abstractions';
import type { RestCandidateDraft } from './rest-candidates';
import type {
  RestGovernanceOptions,
  RestOverrideOptions,
  RestRuleMatchOptions,
} from './rest-publication-options';
import { joinRoutePath, routePathProblems } from './rest-route-paths';

/** What host governance decided for one candidate. */
export interface CandidateGovernance {
  matchedRuleIds: string[];
  skippedRules: Array<{ ruleId: string; kind: 'suppression' | 'override'; reason: SkipReason }>;
  selectedSuppressionId: string | null;
  suppressionSelectionBasis: RestSelectionBasis | null;
  selectedOverrideId: string | null;
  overrideSelectionBasis: RestSelectionBasis | null;
  appliedOverrideId: string | null;
  appliedChanges: string[];
  effectiveMetadata: RestEndpointMetadata;
}

const selectors: ReadonlyArray<
  readonly [
    RestSelectionBasis,
    keyof RestRuleMatchOptions,
    (candidate: RestCandidateDraft) => readonly string[],
  ]
> = [
  ['behavior', 'Behaviors', (candidate) => [candidate.behaviorId]],
  [
    'route-group',
    'RouteGroups',
    (candidate) => [
      candidate.routeGroupId,
      ...(candidate.routeGroupPrefix ? [candidate.routeGroupPrefix] : []),
    ],
  ],
  ['module', 'Modules', (candidate) => [candidate.sourceModuleId]],
  ['tag', 'Tags', (candidate) => candidate.originalMetadata.tags],
  ['scope', 'Scopes', (candidate) => candidate.hostGovernanceScopes],
];

/**
 * The basis on which a rule matches a candidate, or null. Selectors are alternatives and the basis is the most
 * specific one that names the candidate; Styles and Versions narrow; a rule with qualifiers only matches on them.
 */
export function selectionBasis(
  match: RestRuleMatchOptions,
  candidate: RestCandidateDraft,
): RestSelectionBasis | null {
  if (match.Styles.length > 0 && !match.Styles.includes(candidate.authoringStyle)) return null;
  if (match.Versions.length > 0 && !match.Versions.includes(candidate.originalMetadata.apiMajorVersion))
    return null;
  const given = selectors.filter(([, key]) => (match[key] as readonly unknown[]).length > 0);
  if (given.length === 0) return match.Styles.length > 0 ? 'authoring-style' : 'api-major-version';
  for (const [basis, key, values] of given) {
    const wanted = match[key] as readonly string[];
    if (values(candidate).some((value) => wanted.includes(value))) return basis;
  }
  return null;
}

const rank = (basis: RestSelectionBasis) => restSelectionBases.indexOf(basis);

/** Problems with override actions that can be checked once per rule (an invalid Set:Path). */
export function overrideProblems(governance: RestGovernanceOptions): string[] {
  return governance.Overrides.flatMap((rule, index) =>
    rule.Set.Path === undefined
      ? []
      : routePathProblems(rule.Set.Path).map(
          (problem) => `Engine:Rest:Governance:Overrides:${index}:Set:Path: ${problem}`,
        ),
  );
}

function applyAction(
  metadata: RestEndpointMetadata,
  set: RestOverrideOptions['Set'],
): { metadata: RestEndpointMetadata; changed: string[] } {
  const next: RestEndpointMetadata = {
    ...metadata,
    ...(set.Method !== undefined ? { method: set.Method } : {}),
    ...(set.Path !== undefined ? { path: joinRoutePath(set.Path, '') } : {}),
    ...(set.Version !== undefined ? { apiMajorVersion: set.Version } : {}),
    ...(set.Tags !== undefined ? { tags: [...set.Tags] } : {}),
    ...(set.Documents !== undefined ? { openApiDocumentNames: [...set.Documents] } : {}),
    ...(set.EndpointName !== undefined ? { endpointName: set.EndpointName } : {}),
  };
  const changed = (Object.keys(next) as Array<keyof RestEndpointMetadata>).filter(
    (field) => JSON.stringify(next[field]) !== JSON.stringify(metadata[field]),
  );
  return { metadata: next, changed };
}

function declaredFields(set: RestOverrideOptions['Set']): string[] {
  const names: Record<string, string> = {
    Method: 'method',
    Path: 'path',
    Version: 'apiMajorVersion',
    Tags: 'tags',
    Documents: 'openApiDocumentNames',
    EndpointName: 'endpointName',
  };
  return Object.entries(names)
    .filter(([key]) => set[key as keyof typeof set] !== undefined)
    .map(([, field]) => field);
}

function summary(bases: Map<string, RestSelectionBasis>): SuppressionEntry['selectionBasisSummary'] {
  const grouped = new Map<RestSelectionBasis, string[]>();
  for (const [candidateId, basis] of bases) grouped.set(basis, [...(grouped.get(basis) ?? []), candidateId]);
  return [...grouped]
    .sort(([left], [right]) => rank(left) - rank(right))
    .map(([basis, candidateIds]) => ({ basis, candidateIds }));
}

/**
 * Applies the host rules: suppressions first, then overrides on what is left. A rule acts only on candidates
 * that passed the authoring policy and are host-governed; a matching rule that cannot act is recorded as
 * skipped, with the reason, on the rule and on the candidate.
 */
export function applyGovernance(
  candidates: ReadonlyArray<RestCandidateDraft & { readonly policyAllowed: boolean }>,
  governance: RestGovernanceOptions,
): {
  results: Map<string, CandidateGovernance>;
  suppressions: SuppressionEntry[];
  overrides: OverrideEntry[];
} {
  const results = new Map<string, CandidateGovernance>();
  const suppressionTrack = governance.Suppressions.map(() => ({
    matched: new Map<string, RestSelectionBasis>(),
    selected: [] as string[],
    skipped: [] as Array<{ candidateId: string; reason: SkipReason }>,
  }));
  const overrideTrack = governance.Overrides.map(() => ({
    matched: new Map<string, RestSelectionBasis>(),
    selected: [] as string[],
    applied: [] as Array<{ candidateId: string; changedFields: string[] }>,
    unchanged: [] as string[],
    skipped: [] as Array<{ candidateId: string; reason: SkipReason }>,
  }));

  for (const candidate of candidates) {
    const result: CandidateGovernance = {
      matchedRuleIds: [],
      skippedRules: [],
      selectedSuppressionId: null,
      suppressionSelectionBasis: null,
      selectedOverrideId: null,
      overrideSelectionBasis: null,
      appliedOverrideId: null,
      appliedChanges: [],
      effectiveMetadata: candidate.originalMetadata,
    };
    results.set(candidate.candidateId, result);
    const blocked: SkipReason | null = !candidate.policyAllowed
      ? 'candidate-filtered-by-policy'
      : candidate.hostGovernance === 'not-opted-in'
        ? 'route-group-not-opted-in'
        : candidate.hostGovernance === 'declared-only'
          ? 'host-governance-not-allowed'
          : null;
    const skip = (
      kind: 'suppression' | 'override',
      ruleId: string,
      track: { skipped: Array<{ candidateId: string; reason: SkipReason }> },
      reason: SkipReason,
    ) => {
      track.skipped.push({ candidateId: candidate.candidateId, reason });
      result.skippedRules.push({ ruleId, kind, reason });
    };

    const suppressionMatches = governance.Suppressions.map((rule, index) => ({
      rule,
      index,
      basis: selectionBasis(rule.Match, candidate),
    }))
      .filter((match): match is typeof match & { basis: RestSelectionBasis } => match.basis !== null)
      .sort((left, right) => rank(left.basis) - rank(right.basis) || left.index - right.index);
    suppressionMatches.forEach(({ rule, index, basis }, position) => {
      result.matchedRuleIds.push(rule.Id);
      suppressionTrack[index].matched.set(candidate.candidateId, basis);
      if (blocked) return skip('suppression', rule.Id, suppressionTrack[index], blocked);
      if (position > 0) return skip('suppression', rule.Id, suppressionTrack[index], 'another-rule-selected');
      suppressionTrack[index].selected.push(candidate.candidateId);
      result.selectedSuppressionId = rule.Id;
      result.suppressionSelectionBasis = basis;
    });

    const overrideMatches = governance.Overrides.map((rule, index) => ({
      rule,
      index,
      basis: selectionBasis(rule.Match, candidate),
    }))
      .filter((match): match is typeof match & { basis: RestSelectionBasis } => match.basis !== null)
      .sort(
        (left, right) =>
          rank(left.basis) - rank(right.basis) ||
          right.rule.Priority - left.rule.Priority ||
          left.index - right.index,
      );
    overrideMatches.forEach(({ rule, index, basis }, position) => {
      const track = overrideTrack[index];
      result.matchedRuleIds.push(rule.Id);
      track.matched.set(candidate.candidateId, basis);
      if (blocked) return skip('override', rule.Id, track, blocked);
      if (result.selectedSuppressionId) return skip('override', rule.Id, track, 'candidate-suppressed');
      if (position > 0) return skip('override', rule.Id, track, 'another-rule-selected');
      track.selected.push(candidate.candidateId);
      result.selectedOverrideId = rule.Id;
      result.overrideSelectionBasis = basis;
      const { metadata, changed } = applyAction(candidate.originalMetadata, rule.Set);
      if (changed.length === 0) {
        track.unchanged.push(candidate.candidateId);
        return;
      }
      track.applied.push({ candidateId: candidate.candidateId, changedFields: changed });
      result.appliedOverrideId = rule.Id;
      result.appliedChanges = changed;
      result.effectiveMetadata = metadata;
    });
  }

  const suppressions: SuppressionEntry[] = governance.Suppressions.map((rule, index) => {
    const track = suppressionTrack[index];
    return {
      id: rule.Id,
      source: `Engine:Rest:Governance:Suppressions:${index}`,
      reason: rule.Reason ?? null,
      match: matchEntry(rule.Match),
      matchedCandidateIds: [...track.matched.keys()],
      suppressedCandidateIds: track.selected,
      skipped: track.skipped,
      outcome:
        track.selected.length > 0
          ? 'suppressed'
          : track.matched.size > 0
            ? 'matched-but-skipped'
            : 'unmatched',
      selectionBasisSummary: summary(track.matched),
    };
  });
  const overrides: OverrideEntry[] = governance.Overrides.map((rule, index) => {
    const track = overrideTrack[index];
    return {
      id: rule.Id,
      source: `Engine:Rest:Governance:Overrides:${index}`,
      priority: rule.Priority,
      match: matchEntry(rule.Match),
      declaredAction: {
        method: rule.Set.Method ?? null,
        path: rule.Set.Path === undefined ? null : joinRoutePath(rule.Set.Path, ''),
        apiMajorVersion: rule.Set.Version ?? null,
        tags: rule.Set.Tags ? [...rule.Set.Tags] : null,
        openApiDocumentNames: rule.Set.Documents ? [...rule.Set.Documents] : null,
        endpointName: rule.Set.EndpointName ?? null,
      },
      declaredFields: declaredFields(rule.Set),
      effectiveFields: [...new Set(track.applied.flatMap((action) => action.changedFields))],
      matchedCandidateIds: [...track.matched.keys()],
      selectedCandidateIds: track.selected,
      appliedCandidateIds: track.applied.map((action) => action.candidateId),
      unchangedCandidateIds: track.unchanged,
      skipped: track.skipped,
      effectiveActions: track.applied,
      outcome:
        track.applied.length > 0
          ? 'applied'
          : track.selected.length > 0
            ? 'selected-without-change'
            : track.matched.size > 0
              ? 'matched-but-skipped'
              : 'unmatched',
      selectionBasisSummary: summary(track.matched),
    };
  });
  return { results, suppressions, overrides };
}

function matchEntry(match: RestRuleMatchOptions): SuppressionEntry['match'] {
  return {
    modules: [...match.Modules],
    behaviors: [...match.Behaviors],
    routeGroups: [...match.RouteGroups],
    tags: [...match.Tags],
    scopes: [...match.Scopes],
    styles: [...match.Styles],
    apiMajorVersions: [...match.Versions],
  };
}
