import { stateLabels, type ShownState } from '../dependency-status';
import { Icon } from './icon';

/** A state as an SVG icon plus words (never colour alone); the colour is a class the stylesheet themes. */
export function StateBadge({ state }: { readonly state: ShownState }) {
  return (
    <span class={`badge badge-${state}`}>
      <Icon name={state} /> {stateLabels[state]}
    </span>
  );
}

/** The shown state of a health status (Healthy / Degraded / Unhealthy); anything else is Unknown. */
export function healthState(status: string | null | undefined): ShownState {
  return status === 'Healthy'
    ? 'healthy'
    : status === 'Degraded'
      ? 'degraded'
      : status === 'Unhealthy'
        ? 'failed'
        : 'unknown';
}

/** A health status as a badge; `stale` marks a last-known value while the host is not answering. */
export function HealthBadge({
  status,
  stale = false,
}: {
  readonly status: string | null | undefined;
  readonly stale?: boolean;
}) {
  const state: ShownState = stale ? 'stale' : healthState(status);
  return (
    <span class={`badge badge-${state}`}>
      <Icon name={state} /> {stale ? `Stale (last: ${status ?? 'Unknown'})` : (status ?? 'Unknown')}
    </span>
  );
}
