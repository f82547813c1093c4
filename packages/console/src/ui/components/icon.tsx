/**
 * The console's icons: inline SVG shipped in the bundle, drawn with `currentColor`, so they render the same on
 * every system whatever its fonts (a font glyph such as U+23F1 is an empty box where the font lacks it). Always
 * decorative (`aria-hidden`): the label beside an icon says the same in words.
 */
export type IconName =
  | 'healthy'
  | 'degraded'
  | 'failed'
  | 'timed-out'
  | 'stale'
  | 'unknown'
  | 'pending'
  | 'live'
  | 'lost'
  | 'close';

const paths: Readonly<Record<IconName, string>> = {
  healthy: 'M3 8.5l3.2 3.2L13 4.8',
  degraded: 'M8 1.8L14.6 13.6H1.4Z M8 6v3.6 M8 11.4v.1',
  failed: 'M4 4l8 8 M12 4l-8 8',
  'timed-out': 'M8 2.2a5.8 5.8 0 1 0 .01 0Z M8 4.6V8l2.6 1.8 M6.4 0.9h3.2',
  stale: 'M8 2.2a5.8 5.8 0 1 0 .01 0Z M8 4.6V8 M3 13L13 3',
  unknown: 'M5.8 5.8a2.3 2.3 0 1 1 3.2 2.1c-.7.3-1 .8-1 1.5v.6 M8 12.2v.1',
  pending: 'M3.5 8h.1 M8 8h.1 M12.5 8h.1',
  live: 'M8 5a3 3 0 1 0 .01 0Z',
  lost: 'M6.5 9.5l-2 2a2.1 2.1 0 0 1-3-3l2-2 M9.5 6.5l2-2a2.1 2.1 0 0 1 3 3l-2 2 M2 2l12 12',
  close: 'M4 4l8 8 M12 4l-8 8',
};

export function Icon({ name }: { readonly name: IconName }) {
  return (
    <svg
      class={`icon icon-${name}`}
      aria-hidden="true"
      focusable="false"
      width="16"
      height="16"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
    >
      <path d={paths[name]} />
    </svg>
  );
}
