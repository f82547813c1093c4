import type { EngineMeter } from '../pack/engine-meter';
import type { JobRunResult } from './job-scheduler';

/** Records each background job run on the engine meter: a run counter and a duration histogram, by job and outcome. */
export function jobRunMetrics(meter: EngineMeter) {
  return (jobId: string, outcome: JobRunResult, durationMs: number): void => {
    meter.counter('corekit.engine.job.runs', 'background job runs by job and outcome').add(1, {
      job: jobId,
      outcome,
    });
    meter.histogram('corekit.engine.job.duration', 'background job run duration', 'ms').record(durationMs, {
      job: jobId,
    });
  };
}
