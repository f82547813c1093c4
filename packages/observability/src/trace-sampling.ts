import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';
import type { SamplingOptions, SamplingStrategy } from './open-telemetry-options';
import type { OtelEnvironment } from './otel-environment';

/** Root traces per second a process records when nothing chooses otherwise. */
export const defaultTracesPerSecond = 10;

/**
 * Records at most `tracesPerSecond` of the traces it is asked about, per process: a token bucket that holds up to
 * one second's worth (at least one trace) and refills continuously, so a quiet service has every trace recorded
 * and a busy one a steady few per second whatever its traffic. `now` is in milliseconds (a test passes its own clock).
 */
export class RateLimitedSampler implements Sampler {
  private readonly capacity: number;
  private tokens: number;
  private last: number;

  constructor(
    private readonly tracesPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(tracesPerSecond > 0) || !Number.isFinite(tracesPerSecond)) {
      throw new Error(`traces per second must be a positive number, got ${tracesPerSecond}`);
    }
    this.capacity = Math.max(1, tracesPerSecond);
    this.tokens = this.capacity;
    this.last = now();
  }

  shouldSample(
    _context: Context,
    _traceId: string,
    _spanName: string,
    _spanKind: SpanKind,
    _attributes: Attributes,
    _links: Link[],
  ): SamplingResult {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.tracesPerSecond);
    this.last = now;
    if (this.tokens < 1) return { decision: SamplingDecision.NOT_RECORD };
    this.tokens -= 1;
    return { decision: SamplingDecision.RECORD_AND_SAMPLED };
  }

  toString(): string {
    return `RateLimitedSampler{${this.tracesPerSecond}/s}`;
  }
}

/** The sampler a host runs with, and how the technology surface and the started record name it. */
export interface TraceSampling {
  readonly sampler: Sampler;
  /** `parentbased_rate_limited` and the like: the `OTEL_TRACES_SAMPLER` name of what runs. */
  readonly name: string;
  /** Traces per second (rate limited) or the ratio (trace id ratio); absent otherwise. */
  readonly argument?: number;
  /** Where the choice came from. */
  readonly source: 'section' | 'OTEL_TRACES_SAMPLER' | 'default';
  /** The sampler is parent based: a span whose parent is not sampled is not either. */
  readonly parentBased: boolean;
}

/** `OTEL_TRACES_SAMPLER` values this package runs (the standard ones and the rate-limited sampler). */
const environmentSamplers = {
  always_on: { strategy: 'AlwaysOn', parentBased: false },
  always_off: { strategy: 'AlwaysOff', parentBased: false },
  traceidratio: { strategy: 'Ratio', parentBased: false },
  parentbased_always_on: { strategy: 'AlwaysOn', parentBased: true },
  parentbased_always_off: { strategy: 'AlwaysOff', parentBased: true },
  parentbased_traceidratio: { strategy: 'Ratio', parentBased: true },
  corekit_rate_limited: { strategy: 'RateLimited', parentBased: false },
  parentbased_corekit_rate_limited: { strategy: 'RateLimited', parentBased: true },
} as const satisfies Record<string, { strategy: SamplingStrategy; parentBased: boolean }>;

const names: Record<SamplingStrategy, string> = {
  AlwaysOn: 'always_on',
  AlwaysOff: 'always_off',
  Ratio: 'traceidratio',
  RateLimited: 'corekit_rate_limited',
};

/**
 * The sampler of a host. The section's `Sampling:Strategy` (or `Sampling:TracesPerSecond` alone) wins; else `OTEL_TRACES_SAMPLER` (with
 * `OTEL_TRACES_SAMPLER_ARG`); else parent-based rate limited at {@link defaultTracesPerSecond} per process. An
 * unknown sampler name or a bad argument throws (the SDK then does not start, event 3014).
 */
export function traceSampling(options: SamplingOptions, environment: OtelEnvironment): TraceSampling {
  // `TracesPerSecond` alone chooses the rate-limited sampler as much as `Strategy: RateLimited` does.
  const strategy = options.Strategy ?? (options.TracesPerSecond !== undefined ? 'RateLimited' : undefined);
  if (strategy !== undefined) {
    const argument =
      strategy === 'RateLimited'
        ? (options.TracesPerSecond ?? defaultTracesPerSecond)
        : strategy === 'Ratio'
          ? options.Ratio
          : undefined;
    return build(strategy, true, argument, 'section');
  }
  const given = environment.tracesSampler;
  if (given !== undefined) {
    const known = environmentSamplers[given.toLowerCase() as keyof typeof environmentSamplers];
    if (!known) {
      throw new Error(
        `OTEL_TRACES_SAMPLER is "${given}"; expected one of ${Object.keys(environmentSamplers).join(', ')}`,
      );
    }
    const text = environment.tracesSamplerArgument;
    let argument: number | undefined;
    if (known.strategy === 'Ratio' || known.strategy === 'RateLimited') {
      argument =
        text === undefined ? (known.strategy === 'Ratio' ? 1 : defaultTracesPerSecond) : Number(text);
      const valid =
        known.strategy === 'Ratio'
          ? Number.isFinite(argument) && argument >= 0 && argument <= 1
          : Number.isFinite(argument) && argument > 0;
      if (!valid) {
        throw new Error(
          `OTEL_TRACES_SAMPLER_ARG is "${text}"; ${given} expects ${known.strategy === 'Ratio' ? 'a ratio from 0 to 1' : 'a positive number of traces per second'}`,
        );
      }
    }
    return build(known.strategy, known.parentBased, argument, 'OTEL_TRACES_SAMPLER');
  }
  return build('RateLimited', true, defaultTracesPerSecond, 'default');
}

function build(
  strategy: SamplingStrategy,
  parentBased: boolean,
  argument: number | undefined,
  source: TraceSampling['source'],
): TraceSampling {
  const root =
    strategy === 'AlwaysOn'
      ? new AlwaysOnSampler()
      : strategy === 'AlwaysOff'
        ? new AlwaysOffSampler()
        : strategy === 'Ratio'
          ? new TraceIdRatioBasedSampler(argument ?? 1)
          : new RateLimitedSampler(argument ?? defaultTracesPerSecond);
  return {
    // Parent based: a span whose parent was sampled (the caller's traceparent, the enclosing span) is recorded,
    // one whose parent was not is not; only a trace's first span asks the root sampler.
    sampler: parentBased ? new ParentBasedSampler({ root }) : root,
    name: `${parentBased ? 'parentbased_' : ''}${names[strategy]}`,
    ...(argument !== undefined ? { argument } : {}),
    source,
    parentBased,
  };
}
