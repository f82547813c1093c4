import { WireMessage } from './protobuf-wire';

/**
 * Decoding of OTLP export requests (opentelemetry-proto `collector/{trace,metrics,logs}/v1`) from both
 * encodings of OTLP/HTTP: binary protobuf (`application/x-protobuf`) and the JSON mapping
 * (`application/json`: camelCase names, hex trace and span ids, 64-bit integers as strings or numbers).
 * Both land in one plain model so a test asserts the same way whatever the exporter sent.
 */

/** Attribute values as plain JavaScript: strings, numbers, booleans, arrays, nested objects, Buffers. */
export type OtlpAttributes = Record<string, unknown>;

export interface OtlpSpan {
  /** Lower-case hex, 32 characters. */
  readonly traceId: string;
  /** Lower-case hex, 16 characters. */
  readonly spanId: string;
  /** Lower-case hex, or '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** SpanKind of the proto: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: OtlpAttributes;
  readonly resource: OtlpAttributes;
  readonly scope: string;
}

export type OtlpTemporality = 'unspecified' | 'delta' | 'cumulative';

export interface OtlpDataPoint {
  readonly attributes: OtlpAttributes;
  /** Sums and gauges: the point's value. */
  readonly value?: number;
  /** Histograms and summaries. */
  readonly count?: number;
  readonly sum?: number;
}

export interface OtlpMetric {
  readonly name: string;
  readonly unit: string;
  readonly type: 'gauge' | 'sum' | 'histogram' | 'exponentialHistogram' | 'summary';
  readonly temporality: OtlpTemporality;
  readonly monotonic: boolean;
  readonly points: OtlpDataPoint[];
  readonly resource: OtlpAttributes;
  readonly scope: string;
}

export interface OtlpLogRecord {
  readonly severityText: string;
  readonly body: unknown;
  readonly attributes: OtlpAttributes;
  readonly traceId: string;
  readonly resource: OtlpAttributes;
}

export type OtlpSignal = 'traces' | 'metrics' | 'logs';

export interface OtlpDecoded {
  readonly spans: OtlpSpan[];
  readonly metrics: OtlpMetric[];
  readonly logs: OtlpLogRecord[];
}

const temporalities: OtlpTemporality[] = ['unspecified', 'delta', 'cumulative'];
const metricTypes = [
  [5, 'gauge'],
  [7, 'sum'],
  [9, 'histogram'],
  [10, 'exponentialHistogram'],
  [11, 'summary'],
] as const;

// ---- protobuf -------------------------------------------------------------------------------------------

function anyValueFromWire(value: WireMessage | undefined): unknown {
  if (!value) return undefined;
  if (value.has(1)) return value.string(1);
  if (value.has(2)) return value.integer(2) === 1;
  if (value.has(3)) return value.integer(3);
  if (value.has(4)) return value.double(4);
  if (value.has(5)) return value.message(5)!.messages(1).map(anyValueFromWire);
  if (value.has(6)) return attributesFromWire(value.message(6)!.messages(1));
  if (value.has(7)) return value.bytes(7);
  return undefined;
}

function attributesFromWire(pairs: WireMessage[]): OtlpAttributes {
  return Object.fromEntries(pairs.map((pair) => [pair.string(1) ?? '', anyValueFromWire(pair.message(2))]));
}

const hex = (bytes: Buffer | undefined): string => (bytes ? bytes.toString('hex') : '');
const resourceFromWire = (owner: WireMessage): OtlpAttributes =>
  attributesFromWire(owner.message(1)?.messages(1) ?? []);
const scopeFromWire = (owner: WireMessage): string => owner.message(1)?.string(1) ?? '';

function spansFromWire(request: WireMessage): OtlpSpan[] {
  return request.messages(1).flatMap((resourceSpans) => {
    const resource = resourceFromWire(resourceSpans);
    return resourceSpans.messages(2).flatMap((scopeSpans) =>
      scopeSpans.messages(2).map((span) => ({
        traceId: hex(span.bytes(1)),
        spanId: hex(span.bytes(2)),
        parentSpanId: hex(span.bytes(4)),
        name: span.string(5) ?? '',
        kind: span.integer(6) ?? 0,
        attributes: attributesFromWire(span.messages(9)),
        resource,
        scope: scopeFromWire(scopeSpans),
      })),
    );
  });
}

function pointFromWire(type: OtlpMetric['type'], point: WireMessage): OtlpDataPoint {
  if (type === 'gauge' || type === 'sum') {
    const value = point.has(4) ? point.double(4) : Number(BigInt.asIntN(64, point.fixed64(6) ?? 0n));
    return { attributes: attributesFromWire(point.messages(7)), value };
  }
  const attributesField = type === 'histogram' ? 9 : type === 'summary' ? 7 : 1;
  return {
    attributes: attributesFromWire(point.messages(attributesField)),
    count: Number(point.fixed64(4) ?? 0n),
    ...(point.has(5) ? { sum: point.double(5) } : {}),
  };
}

function metricsFromWire(request: WireMessage): OtlpMetric[] {
  return request.messages(1).flatMap((resourceMetrics) => {
    const resource = resourceFromWire(resourceMetrics);
    return resourceMetrics.messages(2).flatMap((scopeMetrics) =>
      scopeMetrics.messages(2).flatMap((metric) => {
        const found = metricTypes.find(([field]) => metric.has(field));
        if (!found) return [];
        const [field, type] = found;
        const data = metric.message(field)!;
        return [
          {
            name: metric.string(1) ?? '',
            unit: metric.string(3) ?? '',
            type,
            temporality: type === 'gauge' || type === 'summary' ? 'unspecified' : temporalities[data.integer(2) ?? 0]!,
            monotonic: type === 'sum' && data.integer(3) === 1,
            points: data.messages(1).map((point) => pointFromWire(type, point)),
            resource,
            scope: scopeFromWire(scopeMetrics),
          } satisfies OtlpMetric,
        ];
      }),
    );
  });
}

function logsFromWire(request: WireMessage): OtlpLogRecord[] {
  return request.messages(1).flatMap((resourceLogs) => {
    const resource = resourceFromWire(resourceLogs);
    return resourceLogs.messages(2).flatMap((scopeLogs) =>
      scopeLogs.messages(2).map((record) => ({
        severityText: record.string(3) ?? '',
        body: anyValueFromWire(record.message(5)),
        attributes: attributesFromWire(record.messages(6)),
        traceId: hex(record.bytes(9)),
        resource,
      })),
    );
  });
}

/** Decodes one binary protobuf export request of `signal`. */
export function decodeOtlpProtobuf(signal: OtlpSignal, body: Buffer): OtlpDecoded {
  const request = new WireMessage(body);
  return {
    spans: signal === 'traces' ? spansFromWire(request) : [],
    metrics: signal === 'metrics' ? metricsFromWire(request) : [],
    logs: signal === 'logs' ? logsFromWire(request) : [],
  };
}

// ---- JSON -----------------------------------------------------------------------------------------------

type Json = Record<string, any>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const num = (value: unknown): number | undefined => (value === undefined ? undefined : Number(value));

function anyValueFromJson(value: Json | undefined): unknown {
  if (!value) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('arrayValue' in value) return list(value.arrayValue?.values).map(anyValueFromJson);
  if ('kvlistValue' in value) return attributesFromJson(value.kvlistValue?.values);
  if ('bytesValue' in value) return Buffer.from(String(value.bytesValue), 'base64');
  return undefined;
}

function attributesFromJson(pairs: unknown): OtlpAttributes {
  return Object.fromEntries(list(pairs).map((pair) => [String(pair.key), anyValueFromJson(pair.value)]));
}

/** The JSON mapping writes ids as hex; some producers send base64 (the proto3 default for bytes). */
function idFromJson(value: unknown, length: number): string {
  if (typeof value !== 'string' || value === '') return '';
  return /^[0-9a-f]+$/i.test(value) && value.length === length
    ? value.toLowerCase()
    : Buffer.from(value, 'base64').toString('hex');
}

function decodeOtlpJsonObject(request: Json): OtlpDecoded {
  const spans: OtlpSpan[] = [];
  const metrics: OtlpMetric[] = [];
  const logs: OtlpLogRecord[] = [];
  for (const resourceSpans of list(request.resourceSpans)) {
    const resource = attributesFromJson(resourceSpans.resource?.attributes);
    for (const scopeSpans of list(resourceSpans.scopeSpans))
      for (const span of list(scopeSpans.spans))
        spans.push({
          traceId: idFromJson(span.traceId, 32),
          spanId: idFromJson(span.spanId, 16),
          parentSpanId: idFromJson(span.parentSpanId, 16),
          name: String(span.name ?? ''),
          kind: Number(span.kind ?? 0),
          attributes: attributesFromJson(span.attributes),
          resource,
          scope: String(scopeSpans.scope?.name ?? ''),
        });
  }
  for (const resourceMetrics of list(request.resourceMetrics)) {
    const resource = attributesFromJson(resourceMetrics.resource?.attributes);
    for (const scopeMetrics of list(resourceMetrics.scopeMetrics))
      for (const metric of list(scopeMetrics.metrics)) {
        const type = metricTypes.map(([, name]) => name).find((name) => metric[name] !== undefined);
        if (!type) continue;
        const data = metric[type] as Json;
        const temporality = data.aggregationTemporality;
        metrics.push({
          name: String(metric.name ?? ''),
          unit: String(metric.unit ?? ''),
          type,
          temporality:
            typeof temporality === 'string'
              ? (temporality.replace('AGGREGATION_TEMPORALITY_', '').toLowerCase() as OtlpTemporality)
              : temporalities[Number(temporality ?? 0)]!,
          monotonic: type === 'sum' && data.isMonotonic === true,
          points: list(data.dataPoints).map((point) =>
            type === 'gauge' || type === 'sum'
              ? { attributes: attributesFromJson(point.attributes), value: num(point.asDouble ?? point.asInt) }
              : {
                  attributes: attributesFromJson(point.attributes),
                  count: num(point.count) ?? 0,
                  ...(point.sum !== undefined ? { sum: Number(point.sum) } : {}),
                },
          ),
          resource,
          scope: String(scopeMetrics.scope?.name ?? ''),
        });
      }
  }
  for (const resourceLogs of list(request.resourceLogs)) {
    const resource = attributesFromJson(resourceLogs.resource?.attributes);
    for (const scopeLogs of list(resourceLogs.scopeLogs))
      for (const record of list(scopeLogs.logRecords))
        logs.push({
          severityText: String(record.severityText ?? ''),
          body: anyValueFromJson(record.body),
          attributes: attributesFromJson(record.attributes),
          traceId: idFromJson(record.traceId, 32),
          resource,
        });
  }
  return { spans, metrics, logs };
}

/** Decodes one JSON export request (the signal shows in its top-level field). */
export function decodeOtlpJson(body: string): OtlpDecoded {
  return decodeOtlpJsonObject(JSON.parse(body) as Json);
}
