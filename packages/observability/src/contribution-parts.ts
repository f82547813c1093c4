import type { Logger } from '@corekit/abstractions';
import type { ObservabilityContribution } from './observability-contribution';

/**
 * Calls each factory of a contribution once, when the SDK starts. A factory that throws (no credentials, a
 * missing region) is logged as an error with the contribution's id as event id and skipped: the SDK starts
 * without that part rather than not at all.
 */
export function contributedParts(contribution: ObservabilityContribution, logger: Logger) {
  const call = <T>(name: string, factory: (() => T) | undefined, fallback: T): T => {
    if (!factory) return fallback;
    try {
      return factory.call(contribution);
    } catch (error) {
      logger.log({
        level: 'error',
        eventId: contribution.id,
        category: 'corekit.observability',
        message: `The ${contribution.platform} observability pack failed to create its ${name}: ${(error as Error)?.message ?? String(error)}; started without them`,
        platform: contribution.platform,
      });
      return fallback;
    }
  };
  return {
    spanExporters: call('span exporters', contribution.spanExporters, []),
    spanProcessors: [...call('span processors', contribution.spanProcessors, [])],
    metricExporters: call('metric exporters', contribution.metricExporters, []),
    metricReaders: [...call('metric readers', contribution.metricReaders, [])],
    logRecordExporters: call('log record exporters', contribution.logRecordExporters, []),
    logRecordProcessors: [...call('log record processors', contribution.logRecordProcessors, [])],
    resourceDetectors: [...call('resource detectors', contribution.resourceDetectors, [])],
    propagators: [...call('propagators', contribution.propagators, [])],
    idGenerator: call('id generator', contribution.idGenerator, undefined),
  };
}
