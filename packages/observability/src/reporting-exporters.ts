import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Called with the error of a failed export (undefined when the exporter gave none). */
export type ExportFailureReport = (error: Error | undefined) => void;

/**
 * Reports failures at most once per `intervalMs` (the suppressed count travels with the next report), so a
 * collector that is down for an hour costs a few log lines, not one per batch; a success re-arms it.
 */
export function throttledFailureReport(
  report: (error: Error | undefined, suppressed: number) => void,
  intervalMs = 60_000,
  now: () => number = Date.now,
): ExportFailureReport {
  let lastReportAt: number | undefined;
  let suppressed = 0;
  return (error) => {
    const at = now();
    if (lastReportAt !== undefined && at - lastReportAt < intervalMs) {
      suppressed++;
      return;
    }
    report(error, suppressed);
    lastReportAt = at;
    suppressed = 0;
  };
}

function watch(done: (result: ExportResult) => void, onFailure: ExportFailureReport) {
  return (result: ExportResult) => {
    if (result.code !== ExportResultCode.SUCCESS) onFailure(result.error);
    done(result);
  };
}

/** A span exporter that reports its failed exports and otherwise behaves as the one it wraps. */
export class ReportingSpanExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly onFailure: ExportFailureReport,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, watch(done, this.onFailure));
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/**
 * A push metric exporter that reports its failed exports; its temporality and aggregation preferences (a
 * platform that wants delta sums) are the wrapped exporter's.
 */
export class ReportingMetricExporter implements PushMetricExporter {
  readonly selectAggregationTemporality: PushMetricExporter['selectAggregationTemporality'];
  readonly selectAggregation: PushMetricExporter['selectAggregation'];

  constructor(
    private readonly inner: PushMetricExporter,
    private readonly onFailure: ExportFailureReport,
  ) {
    this.selectAggregationTemporality = inner.selectAggregationTemporality?.bind(inner);
    this.selectAggregation = inner.selectAggregation?.bind(inner);
  }

  export(metrics: ResourceMetrics, done: (result: ExportResult) => void): void {
    this.inner.export(metrics, watch(done, this.onFailure));
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** A log record exporter that reports its failed exports. */
export class ReportingLogRecordExporter implements LogRecordExporter {
  constructor(
    private readonly inner: LogRecordExporter,
    private readonly onFailure: ExportFailureReport,
  ) {}

  export(records: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    this.inner.export(records, watch(done, this.onFailure));
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
