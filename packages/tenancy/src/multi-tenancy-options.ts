import { identifierSchema } from '@corekit/abstractions';
import { z } from 'zod';

/** The configuration section bound by `addMultiTenancy`. */
export const multiTenancySectionPath = 'Engine:MultiTenancy';

/** Names of the resolution strategies, as written in `Strategies`. */
export const tenantResolutionStrategies = ['Header', 'Host', 'RouteParameter', 'Claim', 'Custom'] as const;
export type TenantResolutionStrategy = (typeof tenantResolutionStrategies)[number];

/** A host name as the Host strategy compares it: lower case, no port, no trailing dot. */
export function normalizeHostName(host: string): string {
  let value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  if (colon > 0 && value.indexOf(':') === colon) value = value.slice(0, colon);
  return value.endsWith('.') ? value.slice(0, -1) : value;
}

const hostNameSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, 'must be a host name (letters, digits, . and -, optional :port)');

/** One configured tenant. */
export const tenantOptionsSchema = z.object({
  /** The tenant id (letters, digits, `. _ : -`); the key every other record refers to. */
  Id: identifierSchema,
  /** Name for people; defaults to the id. */
  DisplayName: z.string().min(1).max(200).optional(),
  /** Host names that resolve to this tenant (Host strategy), in addition to `DomainMap`. */
  Domains: z.array(hostNameSchema).default([]),
});
export type TenantOptions = z.output<typeof tenantOptionsSchema>;

/**
 * `Engine:MultiTenancy`. Every key has a default; an empty section is a valid single-strategy setup with no
 * configured tenants (every request is then `missing` unless a default tenant or `AllowUnconfiguredTenants`
 * says otherwise).
 */
export const multiTenancyOptionsSchema = z
  .object({
    /** The configured tenants. Code options merge with configured ones by `Id`. Default none. */
    Tenants: z.array(tenantOptionsSchema).max(10_000).default([]),
    /**
     * Tenant used when no strategy found a candidate at all. Never used when a strategy found a candidate that
     * is unknown or malformed (that request fails instead of running under another tenant). Default none.
     */
    DefaultTenantId: identifierSchema.optional(),
    /** Strategies tried in this order; the first that finds a candidate decides. Default `["Header"]`. */
    Strategies: z.array(z.enum(tenantResolutionStrategies)).min(1).max(5).default(['Header']),
    /** Header read by the Header strategy (case-insensitive). Default `X-Core-Tenant-Id`. */
    HeaderName: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a valid HTTP header name')
      .default('X-Core-Tenant-Id'),
    /** Host name → tenant id, for the Host strategy (ports are ignored, names compared in lower case). */
    DomainMap: z.record(z.string(), identifierSchema).default({}),
    /** Also read `X-Forwarded-Host` (first value) before `Host`; only behind a proxy that sets it. Default false. */
    UseForwardedHost: z.boolean().default(false),
    /** Route parameter read by the RouteParameter strategy. Default `tenantId`. */
    RouteParameterName: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .default('tenantId'),
    /**
     * Path prefix matched when the request carries no parsed route parameters (plain node requests):
     * `{name}` marks the parameter segment. Default `/tenants/{tenantId}`.
     */
    RoutePathTemplate: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~{}-]+)+$/, 'must be an absolute path such as /tenants/{tenantId}')
      .default('/tenants/{tenantId}'),
    /** Claim of the authenticated principal read by the Claim strategy. Default `tenant_id`. */
    ClaimType: z.string().min(1).max(200).default('tenant_id'),
    /**
     * Accept any well-formed tenant id a strategy finds, configured or not (tenant-key posture `open`).
     * Default false: only configured tenants resolve (`configured-only`).
     */
    AllowUnconfiguredTenants: z.boolean().default(false),
    /** Whether the middleware and operation wrapper refuse requests without a tenant by default. Default false. */
    RequireTenant: z.boolean().default(false),
  })
  .superRefine((options, context) => {
    const ids = new Set<string>();
    options.Tenants.forEach((tenant, index) => {
      if (ids.has(tenant.Id)) {
        context.addIssue({ code: 'custom', path: ['Tenants', index, 'Id'], message: 'is configured twice' });
      }
      ids.add(tenant.Id);
    });
    const known = (id: string) => options.AllowUnconfiguredTenants || ids.has(id);
    if (options.DefaultTenantId !== undefined && !known(options.DefaultTenantId)) {
      context.addIssue({
        code: 'custom',
        path: ['DefaultTenantId'],
        message: 'must name a configured tenant',
      });
    }
    const strategies = new Set(options.Strategies);
    if (strategies.size !== options.Strategies.length) {
      context.addIssue({ code: 'custom', path: ['Strategies'], message: 'must not list a strategy twice' });
    }
    const hosts = new Map<string, string>();
    for (const [host, tenantId] of Object.entries(options.DomainMap)) {
      if (!hostNameSchema.safeParse(host).success) {
        context.addIssue({ code: 'custom', path: ['DomainMap', host], message: 'key must be a host name' });
      }
      if (!ids.has(tenantId)) {
        context.addIssue({
          code: 'custom',
          path: ['DomainMap', host],
          message: 'must name a configured tenant',
        });
      }
      hosts.set(normalizeHostName(host), tenantId);
    }
    options.Tenants.forEach((tenant, index) => {
      tenant.Domains.forEach((domain, domainIndex) => {
        const owner = hosts.get(normalizeHostName(domain));
        if (owner !== undefined && owner !== tenant.Id) {
          context.addIssue({
            code: 'custom',
            path: ['Tenants', index, 'Domains', domainIndex],
            message: 'is already mapped to another tenant',
          });
        }
        hosts.set(normalizeHostName(domain), tenant.Id);
      });
    });
  });

/** The bound `Engine:MultiTenancy` section. */
export type MultiTenancyOptions = z.output<typeof multiTenancyOptionsSchema>;
/** What `addMultiTenancy` accepts in code (same keys, defaults optional). */
export type MultiTenancyOptionsInput = z.input<typeof multiTenancyOptionsSchema>;
