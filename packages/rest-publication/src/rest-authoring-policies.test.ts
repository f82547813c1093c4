import {
  endpoint,
  restPost,
  routeGroup,
  type RestAuthoringPolicyDeclaration,
  type RestEndpointCandidateDescriptor,
} from '@corekit/abstractions';
import {
  buildWithRest,
  entriesOf,
  orderBehaviors,
  ordersModule,
  pingBehavior,
  thrown,
} from './test-support/rest-test-fixtures';

/** `ping` published three ways: explicit DSL (POST /api/ping), inline helper (POST /ping) and a profile mapping (POST /ops/ping). */
function threeWays(policy: RestAuthoringPolicyDeclaration | undefined, rest: Record<string, unknown> = {}) {
  return buildWithRest(
    [
      ordersModule(
        [routeGroup('/api', [endpoint('POST', '/ping', 'ping')]), restPost('/ping', 'ping')],
        [...orderBehaviors(), pingBehavior(policy)],
      ),
    ],
    { Profiles: { ops: { Routes: [{ Behavior: 'ping', Method: 'POST', Path: '/ops/ping' }] } }, ...rest },
  );
}

const outcomes = (engine: ReturnType<typeof buildWithRest>) =>
  Object.fromEntries(
    entriesOf<RestEndpointCandidateDescriptor>(engine, 'rest-endpoint-candidates').map((candidate) => [
      candidate.authoringStyle,
      `${candidate.outcome}/${candidate.policyOutcome}`,
    ]),
  );
const publishedPaths = (engine: ReturnType<typeof buildWithRest>) =>
  entriesOf(engine, 'rest-endpoints').map((entry) => entry.path);

describe('behavior-level authoring policies', () => {
  it('publish-all (the default) publishes every candidate of every style', () => {
    const engine = threeWays(undefined);
    expect(publishedPaths(engine)).toEqual(['/api/ping', '/ping', '/ops/ping']);
    expect(engine.catalog('rest-endpoint-publication-groups')!.find('ping:inline-helper')).toMatchObject({
      publishedStyles: ['explicit-module-dsl', 'inline-helper', 'profile-mapping'],
      outcome: 'published',
    });
  });

  it('a disallowed style is filtered out before host governance, and the policy entry says which candidate', () => {
    const engine = threeWays({ disallowedStyles: ['inline-helper'] });
    expect(outcomes(engine)).toEqual({
      'explicit-module-dsl': 'published/allowed',
      'inline-helper': 'filtered-by-policy/disallowed-style',
      'profile-mapping': 'published/allowed',
    });
    expect(engine.catalog('rest-endpoint-authoring-policies')!.find('ping')).toMatchObject({
      declared: true,
      disallowedStyles: ['inline-helper'],
      effectiveStyles: ['explicit-module-dsl', 'generated-profile-shorthand', 'profile-mapping'],
      filteredCandidateIds: ['orders:inline:ping'],
      publishedCandidateIds: ['orders:api:ping', 'profile:ops:ping'],
    });
    expect(engine.catalog('rest-endpoint-publication-groups')!.find('ping:inline-helper')).toMatchObject({
      filteredCandidateIds: ['orders:inline:ping'],
      publishedCandidateIds: [],
      outcome: 'not-published',
    });
  });

  it('a style missing from allowedStyles is filtered as style-not-allowed', () => {
    const engine = threeWays({ allowedStyles: ['explicit-module-dsl'] });
    expect(outcomes(engine)).toEqual({
      'explicit-module-dsl': 'published/allowed',
      'inline-helper': 'filtered-by-policy/style-not-allowed',
      'profile-mapping': 'filtered-by-policy/style-not-allowed',
    });
    expect(publishedPaths(engine)).toEqual(['/api/ping']);
  });

  it('publish-preferred-style keeps the preferred style and marks the others superseded', () => {
    const engine = threeWays({
      preferredStyle: 'profile-mapping',
      multiplePublishedCandidates: 'publish-preferred-style',
    });
    expect(outcomes(engine)).toEqual({
      'explicit-module-dsl': 'superseded/superseded-by-preferred-style',
      'inline-helper': 'superseded/superseded-by-preferred-style',
      'profile-mapping': 'published/allowed',
    });
    expect(engine.catalog('rest-endpoint-authoring-policies')!.find('ping')).toMatchObject({
      wouldPublishCandidateIds: ['orders:api:ping', 'orders:inline:ping', 'profile:ops:ping'],
      publishedCandidateIds: ['profile:ops:ping'],
      supersededCandidateIds: ['orders:api:ping', 'orders:inline:ping'],
    });
    expect(
      engine.catalog('rest-endpoint-publication-groups')!.find('ping:explicit-module-dsl'),
    ).toMatchObject({
      supersededCandidateIds: ['orders:api:ping'],
      publishedStyles: ['profile-mapping'],
    });
  });

  it('publish-preferred-style without a preferred style follows the order of allowedStyles', () => {
    const engine = threeWays({
      allowedStyles: ['inline-helper', 'explicit-module-dsl', 'profile-mapping'],
      multiplePublishedCandidates: 'publish-preferred-style',
    });
    expect(publishedPaths(engine)).toEqual(['/ping']);
  });

  it('publish-preferred-style is answered after host suppressions: a suppressed preferred candidate lets the next style publish', () => {
    const engine = threeWays(
      { preferredStyle: 'profile-mapping', multiplePublishedCandidates: 'publish-preferred-style' },
      { Governance: { Suppressions: [{ Id: 'no-ops-profile', Match: { RouteGroups: ['profile:ops'] } }] } },
    );
    expect(outcomes(engine)).toEqual({
      'explicit-module-dsl': 'published/allowed',
      'inline-helper': 'superseded/superseded-by-preferred-style',
      'profile-mapping': 'suppressed/allowed',
    });
  });

  it('fail-build fails the build naming every candidate that would publish', () => {
    const error = thrown(() =>
      threeWays({ multiplePublishedCandidates: 'fail-build', disallowedStyles: ['profile-mapping'] }),
    );
    expect(error.code).toBe('REST_AUTHORING_POLICY_VIOLATED');
    expect(error.message).toContain('behavior "ping" of module "orders"');
    expect(error.message).toContain(
      '"orders:api:ping" (module "orders" routeGroup("/api").endpoint("POST", "/ping", "ping"))',
    );
    expect(error.message).toContain('"orders:inline:ping" (module "orders" restPost("/ping", "ping"))');
    expect(error.message).not.toContain('profile:ops:ping');
  });

  it('fail-build builds when only one candidate is left to publish', () => {
    const engine = threeWays({
      multiplePublishedCandidates: 'fail-build',
      allowedStyles: ['explicit-module-dsl'],
    });
    expect(publishedPaths(engine)).toEqual(['/api/ping']);
  });

  it('an invalid policy fails the build with the behavior named', () => {
    const error = thrown(() =>
      threeWays({ preferredStyle: 'inline-helper', disallowedStyles: ['inline-helper'] }),
    );
    expect(error.code).toBe('REST_PUBLICATION_INVALID');
    expect(error.message).toContain(
      'module "orders" behaviors[5] ("ping") restAuthoring.preferredStyle "inline-helper" is not an allowed style',
    );
    const unknown = thrown(() => threeWays({ allowedStyles: ['graphql' as never] }));
    expect(unknown.message).toContain('restAuthoring.allowedStyles has unknown style "graphql"');
  });
});
