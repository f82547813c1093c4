import { z } from 'zod';

/** Where every hosted-platform pack's section lives: `Engine:Observability:<Platform>`. */
export const observabilitySectionRoot = 'Engine:Observability';

/** The OTLP/HTTP encodings an exporter can send: binary protobuf (every platform) or the JSON mapping. */
export const otlpProtocols = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof otlpProtocols)[number];

/** Header names a platform pack sets itself (credentials, framing): `Headers` may not override them. */
const reservedHeaderNames = new Set([
  'authorization',
  'content-type',
  'content-length',
  'content-encoding',
  'host',
]);

/** `Enabled` (default true): false registers nothing but the event id and one record saying so. */
export const enabledField = () => z.boolean().default(true);

/** An absolute http(s) URL; `fallback` is the platform's public endpoint when it has one. */
export function endpointField(): z.ZodString;
export function endpointField(fallback: string): z.ZodDefault<z.ZodString>;
export function endpointField(fallback?: string): z.ZodString | z.ZodDefault<z.ZodString> {
  const url = z.string().regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'must be an http:// or https:// URL');
  return fallback === undefined ? url : url.default(fallback);
}

/** `Protocol`: the OTLP/HTTP encoding (default `http/protobuf`, the one every platform ingests). */
export const otlpProtocolField = (allowed: readonly OtlpProtocol[] = otlpProtocols) =>
  z.enum(allowed as [OtlpProtocol, ...OtlpProtocol[]]).default('http/protobuf');

/** `Signals`: which signals are exported to the platform (each default true). */
export const signalsField = () =>
  z
    .object({
      /** Spans. */
      Traces: z.boolean().default(true),
      /** Metrics, on the core's `MetricExportIntervalMilliseconds`. */
      Metrics: z.boolean().default(true),
      /** Log records that reach the OpenTelemetry log pipeline. */
      Logs: z.boolean().default(true),
    })
    .prefault({});

/**
 * `Headers`: extra headers on every export request (a proxy's routing header...). At most 20; names are
 * header tokens other than the credential and framing headers the pack sets. Values are treated as secrets.
 */
export const extraHeadersField = () =>
  z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'must be an HTTP header token')
        .refine((name) => !reservedHeaderNames.has(name.toLowerCase()), {
          message: 'is set by the pack itself (credentials and framing headers cannot be overridden)',
        }),
      z
        .string()
        .max(1000)
        .regex(/^[^\p{Cc}]*$/u, 'must not contain control characters'),
    )
    .refine((headers) => Object.keys(headers).length <= 20, { message: 'must have at most 20 entries' })
    .default({});

/** `TimeoutMilliseconds`: how long one export request may take (default 10000, at most 120000). */
export const exportTimeoutField = () => z.number().int().min(100).max(120_000).default(10_000);

/**
 * The fields every OTLP-speaking platform pack has but `Endpoint`, which each pack declares with its own
 * default (`endpointField`; the exporters append `/v1/traces`, `/v1/metrics`, `/v1/logs`). `protocols`: the
 * encodings the platform ingests.
 */
export function otlpPackShape(options: { protocols?: readonly OtlpProtocol[] } = {}) {
  return {
    /** Default true. */
    Enabled: enabledField(),
    Protocol: otlpProtocolField(options.protocols),
    Signals: signalsField(),
    Headers: extraHeadersField(),
    TimeoutMilliseconds: exportTimeoutField(),
  };
}

/** The settings `otlpPackShape` binds. */
export interface OtlpPackSettings {
  readonly Enabled: boolean;
  readonly Endpoint: string;
  readonly Protocol: OtlpProtocol;
  readonly Signals: { readonly Traces: boolean; readonly Metrics: boolean; readonly Logs: boolean };
  readonly Headers: Readonly<Record<string, string>>;
  readonly TimeoutMilliseconds: number;
}
