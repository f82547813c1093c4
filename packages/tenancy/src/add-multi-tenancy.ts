import { CoreError, isIdentifier, type EngineBuilder, type TechnologySurface } from '@corekit/abstractions';
import { createMultiTenancy, multiTenancyKey, type MultiTenancy } from './multi-tenancy';
import {
  multiTenancyOptionsSchema,
  multiTenancySectionPath,
  type MultiTenancyOptions,
  type MultiTenancyOptionsInput,
} from './multi-tenancy-options';
import { tenancyEventIdNames, tenancyEventIds } from './tenancy-event-ids';
import { ambientContextAccessors } from './tenant-context';
import { TenantResolutionEngine, type TenantResolver } from './tenant-resolver';

/** Registration key of `addMultiTenancy` (a second call is refused). */
export const multiTenancyRegistrationKey = '@corekit/tenancy';

/** What `addMultiTenancy` takes besides configuration: code that cannot live in configuration. */
export interface MultiTenancyExtensions {
  /** Custom strategies, tried in this order where `Custom` sits in `Strategies`. */
  readonly resolvers?: readonly TenantResolver[];
}

const strategyNames: Readonly<Record<string, string>> = {
  Header: 'header',
  Host: 'host',
  RouteParameter: 'route-parameter',
  Claim: 'claim',
  Custom: 'custom',
};

/**
 * Registers tenant resolution (`Engine:MultiTenancy`): binds and validates the section (code options win),
 * provides the `MultiTenancy` service under `multiTenancyKey`, registers event ids 4500-4502 and the
 * `tenant-resolution` technology surface. It mounts nothing: hosts and packs resolve through the service
 * (`resolveForRoute`, `scopeOperation`) or `tenantResolutionMiddleware`.
 */
export function addMultiTenancy(
  builder: EngineBuilder,
  options?: MultiTenancyOptionsInput,
  extensions: MultiTenancyExtensions = {},
): MultiTenancy {
  builder.claimRegistration({ packageName: '@corekit/tenancy', entry: 'addMultiTenancy' });
  builder.declarePack({ packageName: '@corekit/tenancy', specificationVersion: 1 });
  const settings = builder.configuration.bind(multiTenancySectionPath, multiTenancyOptionsSchema, options);
  const resolvers = [...(extensions.resolvers ?? [])];
  assertResolvers(settings, resolvers);

  const engine = new TenantResolutionEngine(settings, resolvers);
  const counter = builder.meter.counter(
    'corekit.tenancy.resolutions',
    'tenant resolutions by outcome (resolved, missing, invalid, unknown) and source strategy',
  );
  const service = createMultiTenancy(settings, engine, builder.logger, counter);
  builder.provide(multiTenancyKey, service);
  builder.addEventIds({
    component: 'Multi-tenancy core',
    ranges: [[4500, 4502]],
    names: tenancyEventIdNames,
  });

  if (resolvers.length > 0 && !settings.Strategies.includes('Custom')) {
    builder.addWarning({
      code: 'TENANCY_RESOLVERS_UNUSED',
      message: `${resolvers.length} custom tenant resolver(s) registered but Strategies does not list Custom; they are never asked`,
      keyPath: `${multiTenancySectionPath}:Strategies`,
      eventId: tenancyEventIds.tenancyConfigured,
    });
  }
  if (settings.Strategies.includes('Host') && engine.domainMappingCount === 0) {
    builder.addWarning({
      code: 'TENANCY_HOST_STRATEGY_UNMAPPED',
      message: 'The Host strategy is enabled but no host name is mapped (DomainMap or Tenants:n:Domains)',
      keyPath: `${multiTenancySectionPath}:DomainMap`,
      eventId: tenancyEventIds.tenancyConfigured,
    });
  }
  builder.logger.log({
    level: 'info',
    eventId: tenancyEventIds.tenancyConfigured,
    category: 'tenancy',
    message: `Multi-tenancy registered: ${settings.Tenants.length} tenant(s), strategies ${settings.Strategies.join(', ')}`,
  });
  builder.addTechnologySurfaces(() => [tenantResolutionSurface(settings, engine, resolvers)]);
  return service;
}

function assertResolvers(settings: MultiTenancyOptions, resolvers: readonly TenantResolver[]): void {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const resolver of resolvers) {
    if (!isIdentifier(resolver.id))
      problems.push(`custom tenant resolver id ${JSON.stringify(resolver.id)} is not a valid id`);
    else if (ids.has(resolver.id))
      problems.push(`custom tenant resolver "${resolver.id}" is registered twice`);
    ids.add(resolver.id);
  }
  if (settings.Strategies.includes('Custom') && resolvers.length === 0) {
    problems.push(`${multiTenancySectionPath}:Strategies lists Custom but no custom resolver was registered`);
  }
  if (problems.length > 0) {
    throw new CoreError(
      'CONFIGURATION_INVALID',
      `Invalid multi-tenancy registration:\n- ${problems.join('\n- ')}`,
      {
        section: multiTenancySectionPath,
        problems,
      },
    );
  }
}

function tenantResolutionSurface(
  settings: MultiTenancyOptions,
  engine: TenantResolutionEngine,
  resolvers: readonly TenantResolver[],
): TechnologySurface {
  const hostEnabled = settings.Strategies.includes('Host');
  return {
    id: 'tenant-resolution',
    kind: 'multi-tenancy',
    displayName: 'Tenant resolution',
    sourcePackage: '@corekit/tenancy',
    metadata: {
      ownership: 'core-managed',
      configuredTenantCount: settings.Tenants.length,
      configuredTenantIds: settings.Tenants.map((tenant) => tenant.Id),
      defaultTenantId: settings.DefaultTenantId ?? null,
      // Host names are never listed: only whether and how many.
      domainResolutionPosture: !hostEnabled
        ? 'disabled'
        : engine.domainMappingCount > 0
          ? 'domain-map'
          : 'unmapped',
      domainMappingCount: engine.domainMappingCount,
      forwardedHostPosture: settings.UseForwardedHost ? 'x-forwarded-host-first' : 'host-header-only',
      tenantKeyPosture: settings.AllowUnconfiguredTenants ? 'open-well-formed' : 'configured-only',
      tenantRequiredByDefault: settings.RequireTenant,
      resolverCount: resolvers.length,
      resolverIds: resolvers.map((resolver) => resolver.id),
      ambientContextAccessorCount: ambientContextAccessors.length,
      ambientContextAccessors: [...ambientContextAccessors],
      ambientContextKind: 'async-local-storage',
      enabledResolutionStrategies: settings.Strategies.map((strategy) => strategyNames[strategy]),
      headerName: settings.Strategies.includes('Header') ? settings.HeaderName : null,
      routeParameterName: settings.Strategies.includes('RouteParameter') ? settings.RouteParameterName : null,
      routePathTemplate: settings.Strategies.includes('RouteParameter') ? settings.RoutePathTemplate : null,
      claimType: settings.Strategies.includes('Claim') ? settings.ClaimType : null,
    },
  };
}
