import {
  defineBehavior,
  endpoint,
  restGet,
  restPost,
  restResource,
  routeGroup,
  type ModuleDefinition,
  type RestEndpointCandidateDescriptor,
  type RestEndpointDescriptor,
} from '@corekit/abstractions';
import { z } from 'zod';
import { buildWithRest, entriesOf, ordersModule, thrown } from './test-support/rest-test-fixtures';

const crud = {
  list: 'orders.list',
  get: 'orders.get',
  create: 'orders.create',
  update: 'orders.update',
  remove: 'orders.remove',
};
const apiIds = [
  'orders:api:orders.list',
  'orders:api:orders.get',
  'orders:api:orders.create',
  'orders:api:orders.update',
  'orders:api:orders.remove',
];

const billing: ModuleDefinition = {
  id: 'billing',
  version: '1.0.0',
  behaviors: [
    defineBehavior({
      id: 'invoices.list',
      input: z.object({}),
      output: z.array(z.string()),
      handler: () => [],
    }),
  ],
  rest: [restGet('/invoices', 'invoices.list')],
};

/**
 * `/api` is host-governed (scope public-api), `/internal` declares no scope (stays authoritative), `/preview`
 * declares a scope but does not allow host governance yet; `ping` is an inline helper; billing is another module.
 */
function governed(governance: Record<string, unknown>) {
  return buildWithRest(
    [
      ordersModule([
        routeGroup('/api', { scopes: ['public-api'], tags: ['Orders'] }, [restResource('orders', crud)]),
        routeGroup('/internal', [endpoint('GET', '/orders/:id', 'orders.get', { name: 'internal-get' })]),
        routeGroup('/preview', { scopes: ['preview'], allowHostGovernance: false }, [
          endpoint('GET', '/orders', 'orders.list', { name: 'preview-list' }),
        ]),
        restPost('/ping', 'ping', { tags: ['Diagnostics'] }),
      ]),
      billing,
    ],
    { Governance: governance },
  );
}

type Engine = ReturnType<typeof governed>;
const find = <T>(engine: Engine, catalogId: string, id: string) => engine.catalog(catalogId)!.find(id) as T;
const candidate = (engine: Engine, id: string) =>
  find<RestEndpointCandidateDescriptor>(engine, 'rest-endpoint-candidates', id);
const suppressed = (engine: Engine) =>
  entriesOf<RestEndpointCandidateDescriptor>(engine, 'rest-endpoint-candidates')
    .filter((entry) => entry.outcome === 'suppressed')
    .map((entry) => entry.candidateId);

describe('host suppressions', () => {
  it.each([
    ['behavior', { Behaviors: ['orders.remove'] }, ['orders:api:orders.remove']],
    ['module', { Modules: ['billing'] }, ['billing:inline:invoices.list']],
    ['route-group', { RouteGroups: ['/api'] }, apiIds],
    ['route-group', { RouteGroups: ['orders:api'] }, apiIds],
    ['tag', { Tags: ['Diagnostics'] }, ['orders:inline:ping']],
    ['scope', { Scopes: ['public-api'] }, apiIds],
    [
      'authoring-style',
      { Styles: ['inline-helper'] },
      ['orders:inline:ping', 'billing:inline:invoices.list'],
    ],
  ])(
    'match by %s (%j) and suppress exactly the matching host-governed candidates',
    (basis, match, expected) => {
      const engine = governed({ Suppressions: [{ Id: 'hide', Match: match, Reason: 'not for the public' }] });
      expect(suppressed(engine)).toEqual(expected);
      expect(find(engine, 'rest-endpoint-suppressions', 'hide')).toMatchObject({
        source: 'Engine:Rest:Governance:Suppressions:0',
        reason: 'not for the public',
        suppressedCandidateIds: expected,
        outcome: 'suppressed',
        selectionBasisSummary: [{ basis, candidateIds: expected }],
      });
      const published = entriesOf<RestEndpointDescriptor>(engine, 'rest-endpoints').map((entry) => entry.id);
      for (const id of expected) {
        expect(published).not.toContain(id);
        expect(candidate(engine, id)).toMatchObject({
          selectedSuppressionId: 'hide',
          suppressionSelectionBasis: basis,
          matchedRuleIds: ['hide'],
        });
      }
    },
  );

  it('is skipped for a route group that declared no host governance scope: the explicit group stays authoritative', () => {
    const engine = governed({ Suppressions: [{ Id: 'no-get', Match: { Behaviors: ['orders.get'] } }] });
    expect(suppressed(engine)).toEqual(['orders:api:orders.get']);
    expect(find(engine, 'rest-endpoint-suppressions', 'no-get')).toMatchObject({
      matchedCandidateIds: ['orders:api:orders.get', 'orders:internal:internal-get'],
      suppressedCandidateIds: ['orders:api:orders.get'],
      skipped: [{ candidateId: 'orders:internal:internal-get', reason: 'route-group-not-opted-in' }],
    });
    expect(candidate(engine, 'orders:internal:internal-get')).toMatchObject({
      outcome: 'published',
      hostGovernance: 'not-opted-in',
      matchedRuleIds: ['no-get'],
      skippedRules: [{ ruleId: 'no-get', kind: 'suppression', reason: 'route-group-not-opted-in' }],
      selectedSuppressionId: null,
    });
    expect(find(engine, 'rest-endpoint-publication-groups', 'orders.get:explicit-module-dsl')).toMatchObject({
      behaviorId: 'orders.get',
      authoringStyle: 'explicit-module-dsl',
      candidateIds: ['orders:api:orders.get', 'orders:internal:internal-get'],
      publishedCandidateIds: ['orders:internal:internal-get'],
      suppressedCandidateIds: ['orders:api:orders.get'],
      routeGroupIds: ['orders:api', 'orders:internal'],
      authoritativeRouteGroupIds: ['orders:internal'],
      skippedHostRules: [
        {
          ruleId: 'no-get',
          kind: 'suppression',
          reason: 'route-group-not-opted-in',
          candidateId: 'orders:internal:internal-get',
        },
      ],
      publishedStyles: ['explicit-module-dsl'],
      outcome: 'published',
    });
  });

  it('is skipped for a group whose scope is declared but not yet open to host governance; the scope stays visible', () => {
    const engine = governed({ Suppressions: [{ Id: 'no-preview', Match: { Scopes: ['preview'] } }] });
    expect(suppressed(engine)).toEqual([]);
    expect(candidate(engine, 'orders:preview:preview-list')).toMatchObject({
      hostGovernanceScopes: ['preview'],
      hostGovernance: 'declared-only',
      skippedRules: [{ ruleId: 'no-preview', kind: 'suppression', reason: 'host-governance-not-allowed' }],
      outcome: 'published',
    });
    expect(find(engine, 'rest-endpoint-suppressions', 'no-preview')).toMatchObject({
      outcome: 'matched-but-skipped',
      suppressedCandidateIds: [],
    });
    expect(find(engine, 'rest-endpoints', 'orders:preview:preview-list')).toMatchObject({
      hostGovernanceScopes: ['preview'],
    });
  });

  it('groups the selection basis per candidate: the most specific selector that names it', () => {
    const engine = governed({
      Suppressions: [{ Id: 'mixed', Match: { Behaviors: ['ping'], Tags: ['Orders'] } }],
    });
    expect(find(engine, 'rest-endpoint-suppressions', 'mixed')).toMatchObject({
      selectionBasisSummary: [
        { basis: 'behavior', candidateIds: ['orders:inline:ping'] },
        { basis: 'tag', candidateIds: apiIds },
      ],
    });
  });

  it('selects the most specific of several matching suppressions and records the others as skipped', () => {
    const engine = governed({
      Suppressions: [
        { Id: 'by-scope', Match: { Scopes: ['public-api'] } },
        { Id: 'by-behavior', Match: { Behaviors: ['orders.list'] } },
      ],
    });
    expect(candidate(engine, 'orders:api:orders.list')).toMatchObject({
      selectedSuppressionId: 'by-behavior',
      suppressionSelectionBasis: 'behavior',
      matchedRuleIds: ['by-behavior', 'by-scope'],
      skippedRules: [{ ruleId: 'by-scope', kind: 'suppression', reason: 'another-rule-selected' }],
    });
    expect(find(engine, 'rest-endpoint-suppressions', 'by-scope')).toMatchObject({
      suppressedCandidateIds: apiIds.filter((id) => id !== 'orders:api:orders.list'),
      skipped: [{ candidateId: 'orders:api:orders.list', reason: 'another-rule-selected' }],
    });
  });

  it('qualifiers narrow: a version that no candidate has leaves the rule unmatched', () => {
    const engine = governed({
      Suppressions: [{ Id: 'v2-only', Match: { Scopes: ['public-api'], Versions: [2] } }],
    });
    expect(suppressed(engine)).toEqual([]);
    expect(find(engine, 'rest-endpoint-suppressions', 'v2-only')).toMatchObject({
      outcome: 'unmatched',
      matchedCandidateIds: [],
      selectionBasisSummary: [],
    });
  });
});

describe('host overrides', () => {
  it('an applied override changes the published answer and keeps the original metadata visible', () => {
    const engine = governed({
      Overrides: [
        { Id: 'v2-list', Match: { Behaviors: ['orders.list'] }, Set: { Path: '/api/v2/orders', Version: 2 } },
      ],
    });
    expect(find(engine, 'rest-endpoints', 'orders:api:orders.list')).toMatchObject({
      path: '/api/v2/orders',
      apiMajorVersion: 2,
      effectiveApiMajorVersions: [2],
      originalMetadata: { path: '/api/orders', apiMajorVersion: 1 },
      selectedOverrideId: 'v2-list',
      overrideSelectionBasis: 'behavior',
      appliedOverrideId: 'v2-list',
    });
    expect(candidate(engine, 'orders:api:orders.list')).toMatchObject({
      appliedChanges: ['path', 'apiMajorVersion'],
      effectiveMetadata: { path: '/api/v2/orders' },
    });
    expect(find(engine, 'rest-endpoint-overrides', 'v2-list')).toMatchObject({
      source: 'Engine:Rest:Governance:Overrides:0',
      priority: 0,
      declaredAction: {
        method: null,
        path: '/api/v2/orders',
        apiMajorVersion: 2,
        tags: null,
        openApiDocumentNames: null,
        endpointName: null,
      },
      declaredFields: ['path', 'apiMajorVersion'],
      effectiveFields: ['path', 'apiMajorVersion'],
      matchedCandidateIds: ['orders:api:orders.list', 'orders:preview:preview-list'],
      selectedCandidateIds: ['orders:api:orders.list'],
      appliedCandidateIds: ['orders:api:orders.list'],
      unchangedCandidateIds: [],
      skipped: [{ candidateId: 'orders:preview:preview-list', reason: 'host-governance-not-allowed' }],
      effectiveActions: [
        { candidateId: 'orders:api:orders.list', changedFields: ['path', 'apiMajorVersion'] },
      ],
      outcome: 'applied',
      selectionBasisSummary: [
        { basis: 'behavior', candidateIds: ['orders:api:orders.list', 'orders:preview:preview-list'] },
      ],
    });
    expect(find(engine, 'rest-endpoints', 'orders:preview:preview-list')).toMatchObject({
      path: '/preview/orders',
      selectedOverrideId: null,
    });
  });

  it('rule 4: an override that wins selection but changes nothing keeps SelectedOverrideId and OverrideSelectionBasis, AppliedOverrideId is null', () => {
    const engine = governed({
      Overrides: [
        { Id: 'same-get', Match: { Behaviors: ['orders.get'] }, Set: { Method: 'GET', Version: 1 } },
      ],
    });
    const published = find<RestEndpointDescriptor>(engine, 'rest-endpoints', 'orders:api:orders.get');
    expect(published).toMatchObject({
      method: 'GET',
      path: '/api/orders/:id',
      selectedOverrideId: 'same-get',
      overrideSelectionBasis: 'behavior',
      appliedOverrideId: null,
    });
    expect(candidate(engine, 'orders:api:orders.get')).toMatchObject({
      selectedOverrideId: 'same-get',
      appliedOverrideId: null,
      appliedChanges: [],
    });
    expect(find(engine, 'rest-endpoint-overrides', 'same-get')).toMatchObject({
      declaredFields: ['method', 'apiMajorVersion'],
      effectiveFields: [],
      selectedCandidateIds: ['orders:api:orders.get'],
      appliedCandidateIds: [],
      unchangedCandidateIds: ['orders:api:orders.get'],
      outcome: 'selected-without-change',
    });
  });

  it('selection: specificity first (behavior beats scope whatever the priority), then priority, then declaration order', () => {
    const engine = governed({
      Overrides: [
        { Id: 'scope-high', Match: { Scopes: ['public-api'] }, Priority: 10, Set: { Tags: ['Public'] } },
        { Id: 'behavior-low', Match: { Behaviors: ['orders.update'] }, Set: { Method: 'PATCH' } },
        {
          Id: 'tag-low',
          Match: { Tags: ['Diagnostics'] },
          Priority: 1,
          Set: { Path: '/diagnostics/ping-low' },
        },
        { Id: 'tag-high', Match: { Tags: ['Diagnostics'] }, Priority: 5, Set: { Path: '/diagnostics/ping' } },
      ],
    });
    expect(candidate(engine, 'orders:api:orders.update')).toMatchObject({
      selectedOverrideId: 'behavior-low',
      overrideSelectionBasis: 'behavior',
      skippedRules: [{ ruleId: 'scope-high', kind: 'override', reason: 'another-rule-selected' }],
    });
    expect(find(engine, 'rest-endpoints', 'orders:api:orders.update')).toMatchObject({
      method: 'PATCH',
      tagNames: ['Orders'],
    });
    expect(find(engine, 'rest-endpoints', 'orders:api:orders.get')).toMatchObject({
      tagNames: ['Public'],
      appliedOverrideId: 'scope-high',
      overrideSelectionBasis: 'scope',
    });
    expect(find(engine, 'rest-endpoints', 'orders:inline:ping')).toMatchObject({
      path: '/diagnostics/ping',
      selectedOverrideId: 'tag-high',
      overrideSelectionBasis: 'tag',
    });
  });

  it('is skipped for a suppressed candidate and for a group that did not opt in', () => {
    const engine = governed({
      Suppressions: [{ Id: 'hide-remove', Match: { Behaviors: ['orders.remove'] } }],
      Overrides: [
        {
          Id: 'rename',
          Match: { Behaviors: ['orders.remove', 'orders.get'] },
          Set: { EndpointName: 'renamed' },
        },
      ],
    });
    expect(find(engine, 'rest-endpoint-overrides', 'rename')).toMatchObject({
      appliedCandidateIds: ['orders:api:orders.get'],
      skipped: [
        { candidateId: 'orders:api:orders.remove', reason: 'candidate-suppressed' },
        { candidateId: 'orders:internal:internal-get', reason: 'route-group-not-opted-in' },
      ],
    });
    expect(find(engine, 'rest-endpoints', 'orders:internal:internal-get')).toMatchObject({
      endpointName: 'internal-get',
      endpointNames: ['internal-get'],
      appliedOverrideId: null,
    });
    expect(find(engine, 'rest-endpoints', 'orders:api:orders.get')).toMatchObject({
      endpointName: 'renamed',
      endpointNames: ['renamed'],
    });
  });
});

describe('governance configuration', () => {
  it('a rule without criteria, an action-less override and a repeated rule id fail with the full key path', () => {
    const error = thrown(() =>
      governed({
        Suppressions: [{ Id: 'empty', Match: {} }],
        Overrides: [
          { Id: 'nothing', Match: { Tags: ['Orders'] }, Set: {} },
          { Id: 'empty', Match: { Tags: ['Orders'] }, Set: { Version: 0 } },
        ],
      }),
    );
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toContain(
      'Engine:Rest:Governance:Suppressions:0:Match needs at least one of Modules, Behaviors, RouteGroups, Tags, Scopes, Styles or Versions',
    );
    expect(error.message).toContain(
      'Engine:Rest:Governance:Overrides:0:Set needs at least one of Method, Path, Version, Tags, Documents or EndpointName',
    );
    expect(error.message).toContain('Engine:Rest:Governance:Overrides:1:Set:Version');
  });

  it('repeated rule ids and an invalid override path are refused', () => {
    const repeated = thrown(() =>
      governed({
        Suppressions: [{ Id: 'same', Match: { Tags: ['x'] } }],
        Overrides: [{ Id: 'same', Match: { Tags: ['x'] }, Set: { Version: 2 } }],
      }),
    );
    expect(repeated.message).toContain(
      'Engine:Rest:Governance:Overrides:0:Id repeats the rule id "same" of Engine:Rest:Governance:Suppressions:0:Id',
    );
    const path = thrown(() =>
      governed({ Overrides: [{ Id: 'bad', Match: { Tags: ['x'] }, Set: { Path: 'no-slash' } }] }),
    );
    expect(path.code).toBe('REST_PUBLICATION_INVALID');
    expect(path.message).toContain(
      'Engine:Rest:Governance:Overrides:0:Set:Path: path "no-slash" must start with "/"',
    );
  });
});
