/** Attribute maps as a test reads them: OTLP AnyValues turned into plain values. */
export type ReceivedAttributes = Record<string, unknown>;

/** One span as received. Ids are lower-case hex; `kind` is the OTLP number (2 = server). */
export interface ReceivedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly attributes: ReceivedAttributes;
  readonly status: { readonly code: number; readonly message: string };
  readonly scope: string;
  readonly resource: ReceivedAttributes;
}

/** One data point of a metric: `value` for sums and gauges, `count`/`sum`/`bucketCounts` for histograms. */
export interface ReceivedDataPoint {
  readonly attributes: ReceivedAttributes;
  readonly value?: number;
  readonly count?: number;
  readonly sum?: number;
  readonly bucketCounts?: readonly number[];
}

export interface ReceivedMetric {
  readonly name: string;
  readonly description: string;
  readonly unit: string;
  readonly type: 'sum' | 'gauge' | 'histogram' | 'other';
  /** Sums and histograms: the aggregation temporality the exporter chose (platforms require one). */
  readonly temporality?: 'unspecified' | 'delta' | 'cumulative';
  /** Sums: whether the sum only grows (a counter). */
  readonly monotonic?: boolean;
  readonly dataPoints: readonly ReceivedDataPoint[];
  readonly scope: string;
  readonly resource: ReceivedAttributes;
}

export interface ReceivedLogRecord {
  readonly body: unknown;
  readonly severityNumber: number;
  readonly severityText: string;
  readonly attributes: ReceivedAttributes;
  readonly traceId: string;
  readonly spanId: string;
  readonly scope: string;
  readonly resource: ReceivedAttributes;
}

type Loose = Record<string, any>;

/** Bytes as hex: decoded protobuf gives bytes, OTLP/JSON already gives hex. */
function hex(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.toLowerCase();
  return Buffer.from(value as Uint8Array).toString('hex');
}

/** An int64 from protobuf (number after toObject) or OTLP/JSON (a decimal string). */
function number(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' ? value : Number(value);
}

export function anyValue(value: Loose | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return number(value.intValue);
  if (value.doubleValue !== undefined) return number(value.doubleValue);
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue !== undefined) return attributes(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return hex(value.bytesValue);
  return undefined;
}

export function attributes(list: Loose[] | undefined): ReceivedAttributes {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, anyValue(entry.value)]));
}

/** Flattens an ExportTraceServiceRequest (protobuf `toObject` or OTLP/JSON) into spans. */
export function spansOf(request: Loose): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans: Loose) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans: Loose) =>
      (scopeSpans.spans ?? []).map((span: Loose): ReceivedSpan => ({
        name: span.name,
        kind: number(span.kind) ?? 0,
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        attributes: attributes(span.attributes),
        status: { code: number(span.status?.code) ?? 0, message: span.status?.message ?? '' },
        scope: scopeSpans.scope?.name ?? '',
        resource: attributes(resourceSpans.resource?.attributes),
      })),
    ),
  );
}

const temporalities = ['unspecified', 'delta', 'cumulative'] as const;

/** `aggregationTemporality` as a number (protobuf) or an enum name (some OTLP/JSON producers). */
function temporality(value: unknown): ReceivedMetric['temporality'] {
  if (typeof value === 'string' && !/^\d+$/.test(value))
    return value.replace('AGGREGATION_TEMPORALITY_', '').toLowerCase() as ReceivedMetric['temporality'];
  return temporalities[number(value) ?? 0] ?? 'unspecified';
}

function numberPoint(point: Loose): ReceivedDataPoint {
  return { attributes: attributes(point.attributes), value: number(point.asDouble ?? point.asInt) };
}

/** Flattens an ExportMetricsServiceRequest into metrics. */
export function metricsOf(request: Loose): ReceivedMetric[] {
  return (request.resourceMetrics ?? []).flatMap((resourceMetrics: Loose) =>
    (resourceMetrics.scopeMetrics ?? []).flatMap((scopeMetrics: Loose) =>
      (scopeMetrics.metrics ?? []).map((metric: Loose): ReceivedMetric => {
        const common = {
          name: metric.name,
          description: metric.description ?? '',
          unit: metric.unit ?? '',
          scope: scopeMetrics.scope?.name ?? '',
          resource: attributes(resourceMetrics.resource?.attributes),
        };
        if (metric.sum) {
          return {
            ...common,
            type: 'sum',
            temporality: temporality(metric.sum.aggregationTemporality),
            monotonic: metric.sum.isMonotonic === true,
            dataPoints: (metric.sum.dataPoints ?? []).map(numberPoint),
          };
        }
        if (metric.gauge) {
          return { ...common, type: 'gauge', dataPoints: (metric.gauge.dataPoints ?? []).map(numberPoint) };
        }
        if (metric.histogram) {
          return {
            ...common,
            type: 'histogram',
            temporality: temporality(metric.histogram.aggregationTemporality),
            dataPoints: (metric.histogram.dataPoints ?? []).map((point: Loose) => ({
              attributes: attributes(point.attributes),
              count: number(point.count),
              sum: number(point.sum),
              bucketCounts: (point.bucketCounts ?? []).map((count: unknown) => number(count) ?? 0),
            })),
          };
        }
        return { ...common, type: 'other', dataPoints: [] };
      }),
    ),
  );
}

/** Flattens an ExportLogsServiceRequest into log records. */
export function logRecordsOf(request: Loose): ReceivedLogRecord[] {
  return (request.resourceLogs ?? []).flatMap((resourceLogs: Loose) =>
    (resourceLogs.scopeLogs ?? []).flatMap((scopeLogs: Loose) =>
      (scopeLogs.logRecords ?? []).map((record: Loose): ReceivedLogRecord => ({
        body: anyValue(record.body),
        severityNumber: number(record.severityNumber) ?? 0,
        severityText: record.severityText ?? '',
        attributes: attributes(record.attributes),
        traceId: hex(record.traceId),
        spanId: hex(record.spanId),
        scope: scopeLogs.scope?.name ?? '',
        resource: attributes(resourceLogs.resource?.attributes),
      })),
    ),
  );
}
