import { context, diag } from '@opentelemetry/api';
import { ExportResultCode, globalErrorHandler, suppressTracing } from '@opentelemetry/core';
import {
  AggregationTemporality,
  AggregationType,
  InstrumentType,
  MetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';

const instrumentTypes = Object.values(InstrumentType);

/** To the OpenTelemetry global error handler (diag), as the SDK's own readers report. */
function reportError(error: unknown): void {
  globalErrorHandler(error instanceof Error ? error : String(error));
}

/**
 * Whether a push exporter can be fed from the shared cumulative storage: cumulative temporality and the default
 * aggregation for every instrument type (no selector counts as the SDK's default, which is both). A selector
 * that throws keeps the exporter on its own reader.
 */
export function sharesCumulativeStorage(exporter: PushMetricExporter): boolean {
  try {
    return instrumentTypes.every(
      (type) =>
        (exporter.selectAggregationTemporality?.(type) ?? AggregationTemporality.CUMULATIVE) ===
          AggregationTemporality.CUMULATIVE &&
        (exporter.selectAggregation?.(type) ?? { type: AggregationType.DEFAULT }).type ===
          AggregationType.DEFAULT,
    );
  } catch {
    return false;
  }
}

export interface SharedCumulativeMetricReaderOptions {
  /** The push exporters fed from this reader; each must be `sharesCumulativeStorage`. May be empty (pull only). */
  readonly exporters: readonly PushMetricExporter[];
  readonly exportIntervalMillis: number;
  /**
   * Bounds one collection, and how long a flush or the shutdown waits for one export (TelemetrySdk passes
   * min(interval, 30000), as for the SDK's periodic readers).
   */
  readonly exportTimeoutMillis: number;
}

/** One push exporter of the reader and the export to it still running, if any. */
interface PushTarget {
  readonly exporter: PushMetricExporter;
  /** Settles when the exporter has answered the last export started to it (never rejects). */
  running: Promise<void> | undefined;
}

/**
 * One metric reader (so one metric storage in the MeterProvider) for everything that wants cumulative
 * temporality and the default aggregation: the Prometheus route collects from it at each scrape
 * (`collect()`), and every `exportIntervalMillis` it collects once and pushes the same ResourceMetrics to each of
 * its push exporters. Exports to different exporters are independent: a failing or slow exporter never delays
 * or stops the others (failures are logged by the exporters' ReportingMetricExporter wrappers).
 */
export class SharedCumulativeMetricReader extends MetricReader {
  private readonly targets: PushTarget[];
  private readonly interval: number;
  private readonly timeout: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: SharedCumulativeMetricReaderOptions) {
    super({
      aggregationSelector: () => ({ type: AggregationType.DEFAULT }),
      aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
      otelComponentType: 'shared_cumulative_metric_reader',
    });
    if (!(options.exportIntervalMillis > 0)) throw new Error('exportIntervalMillis must be greater than 0');
    if (!(options.exportTimeoutMillis > 0)) throw new Error('exportTimeoutMillis must be greater than 0');
    this.interval = options.exportIntervalMillis;
    this.timeout = options.exportTimeoutMillis;
    this.targets = options.exporters.map((exporter) => ({ exporter, running: undefined }));
  }

  /** How many push exporters this reader feeds. */
  get exporterCount(): number {
    return this.targets.length;
  }

  protected override onInitialized(): void {
    // Pull only (the Prometheus route and nothing to push): no timer at all.
    if (this.targets.length === 0) return;
    this.timer = setInterval(() => void this.exportOnSchedule(), this.interval);
    // The export timer never keeps the process alive.
    this.timer.unref();
  }

  /**
   * One scheduled round. An exporter whose previous export has not answered yet is skipped for this tick (never
   * two exports in flight to the same exporter); it gets the next tick's fresher cumulative values instead, so
   * nothing is lost. When every exporter is still busy nothing is collected. A scheduled export is not cut off
   * after the timeout (the SDK's periodic reader would then start the next one beside it): the OTLP exporters end
   * each request within their own timeout, and an exporter that never answers only stops itself.
   */
  private async exportOnSchedule(): Promise<void> {
    const idle = this.targets.filter((target) => target.running === undefined);
    if (idle.length < this.targets.length) {
      diag.debug(
        `SharedCumulativeMetricReader: ${this.targets.length - idle.length} exporter(s) still busy with the previous export; skipping them this tick`,
      );
    }
    if (idle.length === 0) return;
    const collected = this.collectForExport();
    // Each idle target is marked running before the collection settles, so a tick that fires meanwhile skips it.
    await Promise.all(
      idle.map((target) =>
        this.track(
          target,
          collected.then((metrics) => (metrics ? this.exportTo(target.exporter, metrics) : undefined)),
        ),
      ),
    );
  }

  /** Collects once (bounded by the timeout); undefined when there is nothing to export or collection failed. */
  private async collectForExport(): Promise<ResourceMetrics | undefined> {
    try {
      const { resourceMetrics, errors } = await this.collect({ timeoutMillis: this.timeout });
      if (errors.length > 0) diag.error('SharedCumulativeMetricReader: metrics collection errors', ...errors);
      if (resourceMetrics.resource.asyncAttributesPending) {
        try {
          await resourceMetrics.resource.waitForAsyncAttributes?.();
        } catch (error) {
          diag.debug('SharedCumulativeMetricReader: the resource did not resolve its attributes', error);
          reportError(error);
        }
      }
      return resourceMetrics.scopeMetrics.length > 0 ? resourceMetrics : undefined;
    } catch (error) {
      reportError(error);
      return undefined;
    }
  }

  /**
   * Hands one ResourceMetrics to one exporter (outside any trace, so the export's own HTTP calls are not traced);
   * settles when the exporter answers, whatever the answer (a failed export is reported by the exporter's
   * ReportingMetricExporter wrapper), and never rejects.
   */
  private exportTo(exporter: PushMetricExporter, metrics: ResourceMetrics): Promise<void> {
    return new Promise<void>((resolve) => {
      try {
        context.with(suppressTracing(context.active()), () =>
          exporter.export(metrics, (result) => {
            if (result.code !== ExportResultCode.SUCCESS) {
              diag.debug('SharedCumulativeMetricReader: a metrics export failed', result.error);
            }
            resolve();
          }),
        );
      } catch (error) {
        diag.error('SharedCumulativeMetricReader: a metrics exporter threw', error);
        resolve();
      }
    });
  }

  /** Marks `work` as the export running to `target` until it settles. */
  private track(target: PushTarget, work: Promise<void>): Promise<void> {
    const running = work.catch((error: unknown) => reportError(error));
    target.running = running;
    void running.finally(() => {
      if (target.running === running) target.running = undefined;
    });
    return running;
  }

  /** Resolves when `work` settles or after the timeout, whichever is first (the work itself goes on). */
  private async bounded(work: Promise<unknown>, what: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeout);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([work.then(() => 'done' as const), timedOut]);
      if (outcome === 'timeout') {
        diag.error(`SharedCumulativeMetricReader: ${what} did not finish within ${this.timeout} ms`);
      }
    } catch (error) {
      reportError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Collects once and exports the result to every exporter, then flushes each. An exporter with an export still
   * running gets the new one right after it, never beside it. Like the SDK's periodic reader, the flush waits at
   * most the timeout for that previous export, then at most the timeout for its own export, then for the
   * exporter's flush; the exporters are served side by side, so a slow one does not hold up the others.
   */
  protected override async onForceFlush(): Promise<void> {
    if (this.targets.length === 0) return;
    const collected = this.collectForExport();
    await Promise.all(
      this.targets.map(async (target) => {
        const previous = target.running;
        const work = this.track(
          target,
          (async () => {
            if (previous) await previous;
            const metrics = await collected;
            if (metrics) await this.exportTo(target.exporter, metrics);
          })(),
        );
        if (previous) await this.bounded(previous, 'the previous metrics export');
        await this.bounded(work, 'a metrics export');
        await this.bounded(
          Promise.resolve().then(() => target.exporter.forceFlush()),
          'a metrics exporter flush',
        );
      }),
    );
  }

  /** Stops the timer, exports the last values to every exporter (as a flush does), then shuts each one down. */
  protected override async onShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.onForceFlush();
    await Promise.all(
      this.targets.map((target) =>
        Promise.resolve()
          .then(() => target.exporter.shutdown())
          .catch((error: unknown) => reportError(error)),
      ),
    );
  }
}
