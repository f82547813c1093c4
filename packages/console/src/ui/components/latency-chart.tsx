import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';
import type { Sample } from '../console-store';

/** Check duration over time (uPlot on a canvas), with the timeout budget as a second line. */
export function LatencyChart({
  samples,
  timeoutMs,
  label,
}: {
  readonly samples: readonly Sample[];
  readonly timeoutMs: number;
  readonly label: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element || samples.length === 0) return;
    let plot: uPlot | null = null;
    let cancelled = false;
    // uPlot is loaded with the first chart (its own chunk), not with the page: the overview never needs it.
    void import('uplot').then(({ default: Plot }) => {
      if (cancelled) return;
      plot = draw(Plot, element);
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [samples, timeoutMs]);
  function draw(Plot: typeof uPlot, element: HTMLDivElement): uPlot {
    const times = samples.map((sample) => Date.parse(sample.checkedAtUtc) / 1000);
    const durations = samples.map((sample) => sample.durationMs);
    const budget = samples.map(() => timeoutMs);
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const axis = { stroke: dark ? '#d0d4da' : '#333a44', grid: { stroke: dark ? '#3a404a' : '#e3e6ea' } };
    return new Plot(
      {
        width: Math.max(280, Math.min(900, element.clientWidth || 600)),
        height: 220,
        series: [
          {},
          { label: 'duration (ms)', stroke: dark ? '#7ab8ff' : '#0b5cad', width: 2 },
          { label: 'timeout budget (ms)', stroke: dark ? '#ff9b8a' : '#b3261e', dash: [6, 4], width: 1 },
        ],
        axes: [axis, axis],
        scales: { x: { time: true } },
      },
      [times, durations, budget] as uPlot.AlignedData,
      element,
    );
  }
  return (
    <figure class="chart">
      <div ref={container} role="img" aria-label={label} />
      <figcaption>{label}</figcaption>
    </figure>
  );
}
