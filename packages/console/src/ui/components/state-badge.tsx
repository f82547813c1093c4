import { stateGlyphs, stateLabels, type ShownState } from '../dependency-status';

/** A state as glyph plus words (never colour alone); the colour is a class the stylesheet themes. */
export function StateBadge({ state }: { readonly state: ShownState }) {
  return (
    <span class={`badge badge-${state}`}>
      <span aria-hidden="true" class="badge-glyph">
        {stateGlyphs[state]}
      </span>{' '}
      {stateLabels[state]}
    </span>
  );
}

/** A health status (Healthy / Degraded / Unhealthy) as a badge. */
export function HealthBadge({ status }: { readonly status: string | null | undefined }) {
  const state: ShownState =
    status === 'Healthy'
      ? 'healthy'
      : status === 'Degraded'
        ? 'degraded'
        : status === 'Unhealthy'
          ? 'failed'
          : 'unknown';
  return (
    <span class={`badge badge-${state}`}>
      <span aria-hidden="true" class="badge-glyph">
        {stateGlyphs[state]}
      </span>{' '}
      {status ?? 'Unknown'}
    </span>
  );
}
