import type { Sample } from '../console-store';
import { outcomeState, stateLabels } from '../dependency-status';
import { durationText, timeText, utcText } from '../format';

/**
 * Availability over the chart's window as a band of outcomes: each check colours the span until the next one,
 * so an outage of fast failures (a 503 in 2 ms, invisible on a duration chart) is a red stretch. Failed and timed
 * out spans are also hatched (not colour alone); the text alternative gives the figures.
 */
export function AvailabilityBand({
  samples,
  label,
}: {
  readonly samples: readonly Sample[];
  readonly label: string;
}) {
  const width = 600;
  const height = 16;
  if (samples.length === 0) return null;
  const times = samples.map((sample) => Date.parse(sample.checkedAtUtc));
  const first = times[0];
  const span = Math.max(1, times[times.length - 1] - first);
  const down = samples.filter(
    (sample) => sample.outcome === 'failed' || sample.outcome === 'timed-out',
  ).length;
  const percent = Math.round(((samples.length - down) / samples.length) * 10_000) / 100;
  return (
    <svg
      class="availability-band"
      data-band
      role="img"
      aria-label={`${label}: available in ${percent} % of ${samples.length} checks, ${down} failed or timed out`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
    >
      {samples.map((sample, index) => {
        const x = ((times[index] - first) / span) * width;
        const next = index + 1 < times.length ? ((times[index + 1] - first) / span) * width : width;
        return (
          <rect
            key={sample.checkedAtUtc}
            class={`band-${sample.outcome}`}
            x={x}
            y={0}
            width={Math.max(1, next - x)}
            height={height}
          />
        );
      })}
    </svg>
  );
}

/** The numbers behind a chart, as a table a screen reader (or a careful reader) can walk. Newest first. */
export function SampleTable({
  samples,
  caption,
  limit = 200,
}: {
  readonly samples: readonly Sample[];
  readonly caption: string;
  readonly limit?: number;
}) {
  const rows = samples.slice(-limit).reverse();
  return (
    <details class="chart-data" data-chart-table>
      <summary>
        Data table ({rows.length} of {samples.length} checks)
      </summary>
      <table class="data-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Checked (local)</th>
            <th scope="col">Checked (UTC)</th>
            <th scope="col">Outcome</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((sample) => (
            <tr key={sample.checkedAtUtc}>
              <td>
                <time dateTime={sample.checkedAtUtc}>{timeText(sample.checkedAtUtc)}</time>
              </td>
              <td>{utcText(sample.checkedAtUtc)}</td>
              <td>{stateLabels[outcomeState(sample.outcome)]}</td>
              <td>{durationText(sample.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
