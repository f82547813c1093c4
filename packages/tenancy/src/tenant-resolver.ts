import { isIdentifier } from '@corekit/abstractions';
import {
  normalizeHostName,
  type MultiTenancyOptions,
  type TenantResolutionStrategy,
} from './multi-tenancy-options';
import type { TenantContext, TenantSource } from './tenant-context';

/**
 * What resolution reads from a request, transport-neutral: a node `IncomingMessage`, an express request, an
 * operation context or a hand-built object all fit (see `tenantResolutionRequestOf`).
 */
export interface TenantResolutionRequest {
  /** Header names in any case; array values take the first element. */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The request path (query string allowed; it is ignored). */
  readonly path?: string;
  /** Parsed route parameters, when the router has them. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Claims of the authenticated principal, when there is one. */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** A custom strategy: answers a tenant id candidate, or null/undefined to let the next strategy try. */
export interface TenantResolver {
  /** Identifies the resolver in the surface count and in `TenantContext.resolverId`. */
  readonly id: string;
  resolve(request: TenantResolutionRequest): string | null | undefined | Promise<string | null | undefined>;
}

/**
 * The answer of resolution. `missing`: no strategy found a candidate and there is no default tenant.
 * `invalid`: the first candidate found is not a well-formed id. `unknown`: it is well formed but not a
 * configured tenant. Only `resolved` carries a tenant; the other outcomes never fall back to another
 * strategy or to the default tenant.
 */
export type TenantResolution =
  | { readonly outcome: 'resolved'; readonly tenant: TenantContext }
  | { readonly outcome: 'missing' }
  | { readonly outcome: 'invalid' | 'unknown'; readonly source: TenantSource };

const sourceOf: Readonly<Record<Exclude<TenantResolutionStrategy, 'Custom'>, TenantSource>> = {
  Header: 'header',
  Host: 'host',
  RouteParameter: 'route-parameter',
  Claim: 'claim',
};

function firstHeader(request: TenantResolutionRequest, name: string): string | undefined {
  const headers = request.headers ?? {};
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    const first = typeof value === 'string' ? value : value[0];
    const text = first?.split(',')[0]?.trim();
    if (text) return text;
  }
  return undefined;
}

function templateMatcher(template: string, parameter: string): (path: string) => string | undefined {
  const segments = template.split('/').filter(Boolean);
  const marker = `{${parameter}}`;
  const index = segments.indexOf(marker);
  return (path) => {
    if (index < 0) return undefined;
    const actual = path.split('?')[0].split('/').filter(Boolean);
    if (actual.length <= index) return undefined;
    for (let position = 0; position < index; position++) {
      if (actual[position] !== segments[position]) return undefined;
    }
    try {
      return decodeURIComponent(actual[index]);
    } catch {
      return actual[index];
    }
  };
}

/**
 * Resolution over the bound options and the registered custom resolvers. Pure apart from the resolvers it
 * calls: it never reads the ambient context and never logs (the registration wraps it for that).
 */
export class TenantResolutionEngine {
  private readonly tenants: Map<string, { displayName: string }>;
  private readonly hosts = new Map<string, string>();
  private readonly matchRoute: (path: string) => string | undefined;

  constructor(
    private readonly options: MultiTenancyOptions,
    private readonly resolvers: readonly TenantResolver[],
  ) {
    this.tenants = new Map(
      options.Tenants.map((tenant) => [tenant.Id, { displayName: tenant.DisplayName ?? tenant.Id }]),
    );
    for (const [host, tenantId] of Object.entries(options.DomainMap))
      this.hosts.set(normalizeHostName(host), tenantId);
    for (const tenant of options.Tenants) {
      for (const domain of tenant.Domains) this.hosts.set(normalizeHostName(domain), tenant.Id);
    }
    this.matchRoute = templateMatcher(options.RoutePathTemplate, options.RouteParameterName);
  }

  /** Number of host names the Host strategy knows (DomainMap plus per-tenant Domains). */
  get domainMappingCount(): number {
    return this.hosts.size;
  }

  async resolve(request: TenantResolutionRequest): Promise<TenantResolution> {
    for (const strategy of this.options.Strategies) {
      if (strategy === 'Custom') {
        for (const resolver of this.resolvers) {
          const candidate = await resolver.resolve(request);
          if (candidate !== null && candidate !== undefined && candidate !== '') {
            return this.judge(candidate, 'custom', resolver.id);
          }
        }
        continue;
      }
      const candidate = this.candidate(strategy, request);
      if (candidate !== undefined) return this.judge(candidate, sourceOf[strategy]);
    }
    if (this.options.DefaultTenantId !== undefined)
      return this.judge(this.options.DefaultTenantId, 'default');
    return { outcome: 'missing' };
  }

  private candidate(strategy: Exclude<TenantResolutionStrategy, 'Custom'>, request: TenantResolutionRequest) {
    switch (strategy) {
      case 'Header':
        return firstHeader(request, this.options.HeaderName);
      case 'Host': {
        const host =
          (this.options.UseForwardedHost ? firstHeader(request, 'x-forwarded-host') : undefined) ??
          firstHeader(request, 'host');
        if (host === undefined) return undefined;
        // An unmapped host is "no candidate", so the next strategy may still try.
        return this.hosts.get(normalizeHostName(host));
      }
      case 'RouteParameter': {
        const fromParams = request.params?.[this.options.RouteParameterName];
        if (typeof fromParams === 'string' && fromParams !== '') return fromParams;
        return request.path === undefined ? undefined : this.matchRoute(request.path);
      }
      case 'Claim': {
        const claim = request.claims?.[this.options.ClaimType];
        if (typeof claim === 'string' && claim !== '') return claim;
        return undefined;
      }
    }
  }

  private judge(candidate: string, source: TenantSource, resolverId?: string): TenantResolution {
    if (!isIdentifier(candidate)) return { outcome: 'invalid', source };
    const configured = this.tenants.get(candidate);
    if (!configured && !this.options.AllowUnconfiguredTenants) return { outcome: 'unknown', source };
    const tenant: TenantContext = {
      tenantId: candidate,
      displayName: configured?.displayName ?? candidate,
      configured: configured !== undefined,
      source,
      ...(resolverId ? { resolverId } : {}),
    };
    return { outcome: 'resolved', tenant: Object.freeze(tenant) };
  }
}
