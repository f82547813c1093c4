/**
 * The service an engine instance belongs to: one name and version for every surface that names the service
 * (`/engine/instances`, alert incidents and notifications, the OpenTelemetry resource, the manifest), so replicas
 * and tools agree on what "this service" is.
 */
export interface ServiceIdentity {
  /** `Engine:Service:Name`, else `OTEL_SERVICE_NAME`, else `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `corekit-host`. */
  readonly name: string;
  /** `Engine:Service:Version`, else `service.version` of `OTEL_RESOURCE_ATTRIBUTES`, else null. */
  readonly version: string | null;
  /** Where the name came from, so an operator can tell a chosen name from the default. */
  readonly source: ServiceIdentitySource;
}

/** Where a service name came from, first match wins. */
export type ServiceIdentitySource =
  'Engine:Service' | 'OTEL_SERVICE_NAME' | 'OTEL_RESOURCE_ATTRIBUTES' | 'default';

/** The service name when nothing names one. */
export const defaultServiceName = 'corekit-host';

/** What configuration says (`Engine:Service`); either may be absent. */
export interface ConfiguredService {
  readonly name?: string | null;
  readonly version?: string | null;
}

/**
 * The one rule for a service's identity, first match wins: the configured name, `OTEL_SERVICE_NAME`, the
 * `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, `corekit-host`; the version from configuration, else the
 * `service.version` of `OTEL_RESOURCE_ATTRIBUTES`. Blank values count as absent.
 */
export function serviceIdentityFrom(
  configured: ConfiguredService,
  environment: Readonly<Record<string, string | undefined>>,
): ServiceIdentity {
  const attributes = parseOtelKeyValueList(environment.OTEL_RESOURCE_ATTRIBUTES);
  const present = (value: string | null | undefined) => (value?.trim() ? value.trim() : undefined);
  const version = present(configured.version) ?? present(attributes['service.version']) ?? null;
  const named: ReadonlyArray<[string | undefined, ServiceIdentitySource]> = [
    [present(configured.name), 'Engine:Service'],
    [present(environment.OTEL_SERVICE_NAME), 'OTEL_SERVICE_NAME'],
    [present(attributes['service.name']), 'OTEL_RESOURCE_ATTRIBUTES'],
  ];
  const [name, source] = named.find(([value]) => value !== undefined) ?? [defaultServiceName, 'default'];
  return { name: name!, version, source };
}

/**
 * `a=1,b=x%20y` → `{ a: '1', b: 'x y' }`: the key-value lists of the OpenTelemetry environment variables
 * (`OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`), values percent-decoded.
 */
export function parseOtelKeyValueList(text: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const key = pair.slice(0, equals).trim();
    const raw = pair.slice(equals + 1).trim();
    if (!key) continue;
    try {
      result[key] = decodeURIComponent(raw);
    } catch {
      result[key] = raw;
    }
  }
  return result;
}
