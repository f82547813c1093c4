import {
  restAuthoringStyles,
  type RegisteredBehavior,
  type RestAuthoringStyle,
  type RestEndpointAuthoringPolicyDescriptor,
} from '@corekit/abstractions';
import type { RestCandidateDraft } from './rest-candidates';

/** A behavior's authoring policy with the defaults filled in. */
export type EffectiveAuthoringPolicy = Pick<
  RestEndpointAuthoringPolicyDescriptor,
  | 'behaviorId'
  | 'sourceModuleId'
  | 'declared'
  | 'preferredStyle'
  | 'allowedStyles'
  | 'disallowedStyles'
  | 'multiplePublishedCandidates'
  | 'effectiveStyles'
>;

/** Defaults: every style allowed (in `restAuthoringStyles` order), none disallowed or preferred, `publish-all`. */
export function effectivePolicy({ moduleId, behavior }: RegisteredBehavior): EffectiveAuthoringPolicy {
  const declared = behavior.restAuthoring;
  const allowedStyles = [...(declared?.allowedStyles ?? restAuthoringStyles)];
  const disallowedStyles = [...(declared?.disallowedStyles ?? [])];
  return {
    behaviorId: behavior.id,
    sourceModuleId: moduleId,
    declared: declared !== undefined,
    preferredStyle: declared?.preferredStyle ?? null,
    allowedStyles,
    disallowedStyles,
    multiplePublishedCandidates: declared?.multiplePublishedCandidates ?? 'publish-all',
    effectiveStyles: allowedStyles.filter((style) => !disallowedStyles.includes(style)),
  };
}

/** Whether a candidate of `style` may publish under the policy. */
export function styleOutcome(
  policy: EffectiveAuthoringPolicy,
  style: RestAuthoringStyle,
): 'allowed' | 'disallowed-style' | 'style-not-allowed' {
  if (policy.disallowedStyles.includes(style)) return 'disallowed-style';
  if (!policy.allowedStyles.includes(style)) return 'style-not-allowed';
  return 'allowed';
}

/**
 * The multiple-published-candidate answer, given the candidates that would still publish after style filtering
 * and host suppressions. Returns which publish, which are superseded, and a problem for `fail-build`.
 */
export function resolveMultiple(
  policy: EffectiveAuthoringPolicy,
  wouldPublish: readonly RestCandidateDraft[],
): { published: RestCandidateDraft[]; superseded: RestCandidateDraft[]; problem: string | null } {
  if (wouldPublish.length <= 1 || policy.multiplePublishedCandidates === 'publish-all') {
    return { published: [...wouldPublish], superseded: [], problem: null };
  }
  if (policy.multiplePublishedCandidates === 'fail-build') {
    const list = wouldPublish
      .map((candidate) => `"${candidate.candidateId}" (${candidate.source})`)
      .join(', ');
    return {
      published: [...wouldPublish],
      superseded: [],
      problem: `behavior "${policy.behaviorId}" of module "${policy.sourceModuleId}" allows one published REST candidate (restAuthoring.multiplePublishedCandidates "fail-build"), but ${wouldPublish.length} would publish: ${list}; remove all but one, suppress the others (Engine:Rest:Governance:Suppressions) or change the policy`,
    };
  }
  const order = policy.preferredStyle
    ? [policy.preferredStyle, ...policy.effectiveStyles.filter((style) => style !== policy.preferredStyle)]
    : policy.effectiveStyles;
  const winner = order.find((style) => wouldPublish.some((candidate) => candidate.authoringStyle === style));
  return {
    published: wouldPublish.filter((candidate) => candidate.authoringStyle === winner),
    superseded: wouldPublish.filter((candidate) => candidate.authoringStyle !== winner),
    problem: null,
  };
}
