import {
  restAuthoringStyles,
  type RestEndpointCandidateDescriptor,
  type RestEndpointPublicationGroupDescriptor,
} from '@corekit/abstractions';

const notOptedIn = new Set(['route-group-not-opted-in', 'host-governance-not-allowed']);

/**
 * One publication group per behavior and authoring style: which candidates published, were suppressed,
 * filtered or superseded; which explicit route groups stayed authoritative; which host rules were skipped
 * because the route group did not opt into host governance; and which styles published the behavior at all.
 */
export function publicationGroups(
  candidates: readonly RestEndpointCandidateDescriptor[],
): RestEndpointPublicationGroupDescriptor[] {
  const groups = new Map<string, RestEndpointCandidateDescriptor[]>();
  for (const candidate of candidates)
    groups.set(candidate.publicationGroupId, [
      ...(groups.get(candidate.publicationGroupId) ?? []),
      candidate,
    ]);
  const publishedStyles = (behaviorId: string) =>
    restAuthoringStyles.filter((style) =>
      candidates.some(
        (candidate) =>
          candidate.behaviorId === behaviorId &&
          candidate.authoringStyle === style &&
          candidate.outcome === 'published',
      ),
    );
  return [...groups].map(([id, members]) => {
    const [first] = members;
    const ids = (outcome: RestEndpointCandidateDescriptor['outcome']) =>
      members.filter((candidate) => candidate.outcome === outcome).map((candidate) => candidate.candidateId);
    const published = ids('published');
    return {
      id,
      behaviorId: first.behaviorId,
      sourceModuleId: first.sourceModuleId,
      authoringStyle: first.authoringStyle,
      candidateIds: members.map((candidate) => candidate.candidateId),
      publishedCandidateIds: published,
      suppressedCandidateIds: ids('suppressed'),
      filteredCandidateIds: ids('filtered-by-policy'),
      supersededCandidateIds: ids('superseded'),
      routeGroupIds: [...new Set(members.map((candidate) => candidate.routeGroupId))],
      authoritativeRouteGroupIds: [
        ...new Set(
          members
            .filter(
              (candidate) =>
                candidate.authoringStyle === 'explicit-module-dsl' &&
                candidate.hostGovernance !== 'host-governed',
            )
            .map((candidate) => candidate.routeGroupId),
        ),
      ],
      skippedHostRules: members.flatMap((candidate) =>
        candidate.skippedRules
          .filter((rule) => notOptedIn.has(rule.reason))
          .map((rule) => ({ ...rule, candidateId: candidate.candidateId })),
      ),
      publishedStyles: publishedStyles(first.behaviorId),
      outcome: published.length > 0 ? 'published' : 'not-published',
    };
  });
}
