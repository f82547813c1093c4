import type { Sample } from '../console-store';
import { outcomeState, stateLabels } from '../dependency-status';
import { durationText } from '../format';

/**
 * The last checks as a strip of bars: the bar's height is the duration relative to the slowest shown, its
 * pattern the outcome (failed and timed-out bars are also hatched and shorter-capped, not only coloured). The
 * text alternative lists the counts.
 */
export function HistoryStrip({
  samples,
  label,
}: {
  readonly samples: readonly Sample[];
  readonly label: string;
}) {
  const slowest = Math.max(1, ...samples.map((sample) => sample.durationMs ?? 0));
  const width = 4;
  const gap = 1;
  const height = 20;
  const counts = samples.reduce<Record<string, number>>((all, sample) => {
    all[sample.outcome] = (all[sample.outcome] ?? 0) + 1;
    return all;
  }, {});
  const summary =
    samples.length === 0
      ? 'no checks recorded yet'
      : Object.entries(counts)
          .map(([outcome, count]) => `${count} ${stateLabels[outcomeState(outcome)].toLowerCase()}`)
          .join(', ');
  return (
    <svg
      class="strip"
      role="img"
      aria-label={`${label}: last ${samples.length} checks, ${summary}`}
      width={30 * (width + gap)}
      height={height}
      viewBox={`0 0 ${30 * (width + gap)} ${height}`}
    >
      {samples.map((sample, index) => {
        const failedKind = sample.outcome === 'failed' || sample.outcome === 'timed-out';
        const barHeight = failedKind
          ? height
          : Math.max(3, Math.round(((sample.durationMs ?? 0) / slowest) * (height - 2)) + 2);
        return (
          <rect
            key={sample.checkedAtUtc}
            class={`strip-bar strip-${sample.outcome}`}
            x={index * (width + gap)}
            y={height - barHeight}
            width={width}
            height={barHeight}
          >
            <title>{`${sample.checkedAtUtc}: ${stateLabels[outcomeState(sample.outcome)]}, ${durationText(sample.durationMs)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
