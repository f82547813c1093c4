import {
  restEndpointAuthoringPolicySchema,
  restEndpointCandidateSchema,
  restEndpointOverrideSchema,
  restEndpointPublicationGroupSchema,
  restEndpointSchema,
  restEndpointSuppressionSchema,
  restGet,
  restPost,
  restProfile,
  restResource,
  endpoint,
  routeGroup,
  type RestEndpointCandidateDescriptor,
  type RestEndpointDescriptor,
} from '@corekit/abstractions';
import { z } from 'zod';
import { createEngineBuilder, createMemoryLogger, manualClock } from '@corekit/engine-core';
import { addRestPublication } from './add-rest-publication';
import { buildWithRest, entriesOf, ordersModule, thrown } from './test-support/rest-test-fixtures';

const crud = {
  list: 'orders.list',
  get: 'orders.get',
  create: 'orders.create',
  update: 'orders.update',
  remove: 'orders.remove',
};

function candidate(
  engine: ReturnType<typeof buildWithRest>,
  candidateId: string,
): RestEndpointCandidateDescriptor {
  const found = engine.catalog('rest-endpoint-candidates')!.find(candidateId) as
    RestEndpointCandidateDescriptor | undefined;
  if (!found)
    throw new Error(
      `no candidate ${candidateId}; have ${entriesOf(engine, 'rest-endpoint-candidates')
        .map((entry) => entry.candidateId)
        .join(', ')}`,
    );
  return found;
}

describe('each authoring style produces its candidate', () => {
  it('explicit module DSL: a CRUD resource in a route group gives five candidates with the group metadata and explicit target bindings', () => {
    const engine = buildWithRest([
      ordersModule([
        routeGroup('/api', { scopes: ['public-api'], version: 1, tags: ['Orders'], documents: ['public'] }, [
          restResource('orders', crud),
        ]),
      ]),
    ]);
    const candidates = entriesOf<RestEndpointCandidateDescriptor>(engine, 'rest-endpoint-candidates');
    expect(
      candidates.map((entry) => `${entry.originalMetadata.method} ${entry.originalMetadata.path}`),
    ).toEqual([
      'GET /api/orders',
      'GET /api/orders/:id',
      'POST /api/orders',
      'PUT /api/orders/:id',
      'DELETE /api/orders/:id',
    ]);
    expect(candidate(engine, 'orders:api:orders.get')).toMatchObject({
      publicationGroupId: 'orders.get:explicit-module-dsl',
      authoringStyle: 'explicit-module-dsl',
      restPublicationActivationMode: 'explicit-module-dsl',
      sourceShape: 'rest-resource',
      source: 'module "orders" routeGroup("/api").restResource("orders").get',
      behaviorId: 'orders.get',
      sourceModuleId: 'orders',
      declaringModuleId: 'orders',
      routeGroupId: 'orders:api',
      routeGroupPrefix: '/api',
      hostGovernanceScopes: ['public-api'],
      hostGovernance: 'host-governed',
      originalMetadata: {
        method: 'GET',
        path: '/api/orders/:id',
        endpointName: 'orders.get',
        tags: ['Orders'],
        openApiDocumentNames: ['public'],
        apiMajorVersion: 1,
        summary: 'One order',
        successStatus: 200,
      },
      targetBindings: [{ kind: 'behavior', behaviorId: 'orders.get', moduleId: 'orders' }],
      policyOutcome: 'allowed',
      outcome: 'published',
    });
    expect(candidate(engine, 'orders:api:orders.create').originalMetadata.successStatus).toBe(201);
  });

  it('explicit module DSL: endpoint() binds one behavior with its own name, and a group without scopes is not opted in', () => {
    const engine = buildWithRest([
      ordersModule([
        routeGroup('/internal', [endpoint('GET', '/orders/:id', 'orders.get', { name: 'fetchOrder' })]),
      ]),
    ]);
    expect(candidate(engine, 'orders:internal:fetchOrder')).toMatchObject({
      sourceShape: 'route-group-endpoint',
      source: 'module "orders" routeGroup("/internal").endpoint("GET", "/orders/:id", "orders.get")',
      hostGovernanceScopes: [],
      hostGovernance: 'not-opted-in',
      originalMetadata: {
        path: '/internal/orders/:id',
        endpointName: 'fetchOrder',
        openApiDocumentNames: ['default'],
        apiMajorVersion: 1,
      },
    });
  });

  it('inline helper: restPost gives one host-governed candidate with no route group prefix', () => {
    const engine = buildWithRest([ordersModule([restPost('/api/ping', 'ping', { tags: ['Diagnostics'] })])]);
    expect(entriesOf(engine, 'rest-endpoint-candidates')).toHaveLength(1);
    expect(candidate(engine, 'orders:inline:ping')).toMatchObject({
      authoringStyle: 'inline-helper',
      restPublicationActivationMode: 'inline-helper',
      sourceShape: 'inline-helper',
      source: 'module "orders" restPost("/api/ping", "ping")',
      routeGroupId: 'orders:inline',
      routeGroupPrefix: null,
      hostGovernance: 'host-governed',
      targetBindings: [{ kind: 'behavior', behaviorId: 'ping', moduleId: 'orders' }],
      originalMetadata: {
        method: 'POST',
        path: '/api/ping',
        endpointName: 'ping',
        tags: ['Diagnostics'],
        summary: 'Answers pong',
      },
      outcome: 'published',
    });
  });

  it('generated profile shorthand: restProfile("crud") generates the five conventional routes, without explicit target bindings', () => {
    const engine = buildWithRest([
      ordersModule([restProfile('crud', 'orders', { prefix: '/v2/orders', version: 2 })]),
    ]);
    const candidates = entriesOf<RestEndpointCandidateDescriptor>(engine, 'rest-endpoint-candidates');
    expect(
      candidates.map((entry) => [
        entry.candidateId,
        entry.behaviorId,
        entry.originalMetadata.method,
        entry.originalMetadata.path,
      ]),
    ).toEqual([
      ['orders:crud:orders:orders.list', 'orders.list', 'GET', '/v2/orders'],
      ['orders:crud:orders:orders.get', 'orders.get', 'GET', '/v2/orders/:id'],
      ['orders:crud:orders:orders.create', 'orders.create', 'POST', '/v2/orders'],
      ['orders:crud:orders:orders.update', 'orders.update', 'PUT', '/v2/orders/:id'],
      ['orders:crud:orders:orders.remove', 'orders.remove', 'DELETE', '/v2/orders/:id'],
    ]);
    expect(candidates[0]).toMatchObject({
      authoringStyle: 'generated-profile-shorthand',
      sourceShape: 'profile-shorthand',
      source: 'module "orders" restProfile("crud", "orders").list',
      targetBindings: [],
      originalMetadata: { apiMajorVersion: 2 },
    });
  });

  it('generated profile shorthand: "read-only" generates list and get only', () => {
    const engine = buildWithRest([ordersModule([restProfile('read-only', 'orders')])]);
    expect(entriesOf(engine, 'rest-endpoint-candidates').map((entry) => entry.originalMetadata.path)).toEqual(
      ['/orders', '/orders/:id'],
    );
  });

  it('profile mapping: a profile in host configuration maps behavior ids to method and path', () => {
    const engine = buildWithRest([ordersModule([])], {
      Profiles: {
        partner: {
          Prefix: '/partner',
          Version: 3,
          Tags: ['Partner'],
          Documents: ['partner'],
          Scopes: ['partner-api'],
          Routes: [{ Behavior: 'orders.get', Method: 'GET', Path: '/orders/:id' }],
        },
        dormant: { Enabled: false, Routes: [{ Behavior: 'ping', Method: 'GET', Path: '/dormant' }] },
      },
    });
    expect(entriesOf(engine, 'rest-endpoint-candidates')).toHaveLength(1);
    expect(candidate(engine, 'profile:partner:orders.get')).toMatchObject({
      authoringStyle: 'profile-mapping',
      restPublicationActivationMode: 'profile-mapping',
      sourceShape: 'configuration-profile',
      source: 'Engine:Rest:Profiles:partner:Routes:0',
      sourceModuleId: 'orders',
      declaringModuleId: null,
      routeGroupId: 'profile:partner',
      routeGroupPrefix: '/partner',
      hostGovernanceScopes: ['partner-api'],
      originalMetadata: {
        method: 'GET',
        path: '/partner/orders/:id',
        tags: ['Partner'],
        openApiDocumentNames: ['partner'],
        apiMajorVersion: 3,
      },
    });
  });

  it('profile mapping: read from environment variables, keys and method names matched case-insensitively', () => {
    const builder = createEngineBuilder({
      contentRoot: '/nonexistent',
      clock: manualClock(),
      logger: createMemoryLogger(),
      environment: {
        ENGINE__REST__PROFILES__ops__ROUTES__0__BEHAVIOR: 'ping',
        ENGINE__REST__PROFILES__ops__ROUTES__0__METHOD: 'post',
        ENGINE__REST__PROFILES__ops__ROUTES__0__PATH: '/ops/ping',
        ENGINE__REST__PROFILES__ops__VERSION: '2',
      },
    });
    addRestPublication(builder);
    builder.addModule(ordersModule([]));
    const engine = builder.build();
    expect(
      entriesOf(engine, 'rest-endpoints').map((entry) => [entry.method, entry.path, entry.apiMajorVersion]),
    ).toEqual([['POST', '/ops/ping', 2]]);
  });
});

describe('the published endpoint catalog', () => {
  it('carries every field of spec 2.4 and the ownership metadata, and the six catalogs are in the snapshot', () => {
    const engine = buildWithRest([
      ordersModule([
        routeGroup('/api', { scopes: ['public-api'] }, [restResource('orders', { get: 'orders.get' })]),
        restGet('/api/ping', 'ping'),
      ]),
    ]);
    const endpoints = entriesOf<RestEndpointDescriptor>(engine, 'rest-endpoints');
    for (const entry of endpoints)
      expect(restEndpointSchema.strict().safeParse(entry).error?.issues ?? []).toEqual([]);
    expect(endpoints[0]).toEqual({
      id: 'orders:api:orders.get',
      candidateId: 'orders:api:orders.get',
      publicationGroupId: 'orders.get:explicit-module-dsl',
      authoringStyle: 'explicit-module-dsl',
      restPublicationActivationMode: 'explicit-module-dsl',
      behaviorId: 'orders.get',
      sourceModuleId: 'orders',
      declaringModuleId: 'orders',
      routeGroupId: 'orders:api',
      method: 'GET',
      path: '/api/orders/:id',
      endpointName: 'orders.get',
      apiMajorVersion: 1,
      summary: 'One order',
      successStatus: 200,
      originalMetadata: {
        method: 'GET',
        path: '/api/orders/:id',
        endpointName: 'orders.get',
        tags: [],
        openApiDocumentNames: ['default'],
        apiMajorVersion: 1,
        summary: 'One order',
        successStatus: 200,
      },
      hostGovernanceScopes: ['public-api'],
      endpointNames: ['orders.get'],
      targetBindings: [{ kind: 'behavior', behaviorId: 'orders.get', moduleId: 'orders' }],
      routeGroupPrefixes: ['/api'],
      openApiDocumentNames: ['default'],
      tagNames: [],
      httpMethods: ['GET'],
      effectiveApiMajorVersions: [1],
      selectedOverrideId: null,
      overrideSelectionBasis: null,
      appliedOverrideId: null,
      ownership: {
        publicationActivation: 'application-managed',
        profileMetadata: 'application-managed',
        materialization: 'core-managed',
        runtimeCatalogTruth: 'core-managed',
      },
    });

    const snapshot = engine.snapshot();
    const schemas: Record<string, z.ZodType> = {
      restEndpoints: restEndpointSchema,
      restEndpointCandidates: restEndpointCandidateSchema,
      restEndpointPublicationGroups: restEndpointPublicationGroupSchema,
      restEndpointAuthoringPolicies: restEndpointAuthoringPolicySchema,
      restEndpointSuppressions: restEndpointSuppressionSchema,
      restEndpointOverrides: restEndpointOverrideSchema,
    };
    for (const [field, schema] of Object.entries(schemas)) {
      expect(z.array(schema).safeParse(snapshot[field]).error?.issues ?? []).toEqual([]);
    }
    expect((snapshot.restEndpoints as unknown[]).length).toBe(2);
    expect(engine.catalogs().map((view) => view.definition.path)).toEqual(
      expect.arrayContaining([
        '/engine/rest-endpoints',
        '/engine/rest-endpoint-candidates',
        '/engine/rest-endpoint-publication-groups',
        '/engine/rest-endpoint-authoring-policies',
        '/engine/rest-endpoint-suppressions',
        '/engine/rest-endpoint-overrides',
      ]),
    );
  });

  it('lists an authoring policy for every behavior, published or not, with the defaults when none is declared', () => {
    const engine = buildWithRest([ordersModule([restGet('/api/ping', 'ping')])]);
    const policies = entriesOf(engine, 'rest-endpoint-authoring-policies');
    expect(policies.map((policy) => policy.behaviorId)).toEqual([
      'orders.list',
      'orders.get',
      'orders.create',
      'orders.update',
      'orders.remove',
      'ping',
    ]);
    expect(engine.catalog('rest-endpoint-authoring-policies')!.find('ping')).toEqual({
      behaviorId: 'ping',
      sourceModuleId: 'orders',
      declared: false,
      preferredStyle: null,
      allowedStyles: [
        'explicit-module-dsl',
        'inline-helper',
        'generated-profile-shorthand',
        'profile-mapping',
      ],
      disallowedStyles: [],
      multiplePublishedCandidates: 'publish-all',
      effectiveStyles: [
        'explicit-module-dsl',
        'inline-helper',
        'generated-profile-shorthand',
        'profile-mapping',
      ],
      candidateIds: ['orders:inline:ping'],
      filteredCandidateIds: [],
      wouldPublishCandidateIds: ['orders:inline:ping'],
      publishedCandidateIds: ['orders:inline:ping'],
      supersededCandidateIds: [],
    });
  });

  it('refuses entries contributed through addCatalogEntries: module code and host configuration are the only authoring inputs', () => {
    const builder = createEngineBuilder({
      contentRoot: '/nonexistent',
      environment: {},
      clock: manualClock(),
      logger: createMemoryLogger(),
    });
    addRestPublication(builder);
    const validEntry = entriesOf(
      buildWithRest([ordersModule([restGet('/api/ping', 'ping')])]),
      'rest-endpoints',
    )[0];
    builder.addModule(ordersModule([]));
    builder.addCatalogEntries('rest-endpoints', null, [validEntry]);
    const error = thrown(() => builder.build());
    expect(error.code).toBe('CATALOG_INVALID');
    expect(error.message).toContain(
      'the rest-endpoints catalog is computed from module behaviors (ModuleDefinition.rest) and Engine:Rest',
    );
  });
});
