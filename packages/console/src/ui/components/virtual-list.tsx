import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  /** Height of a row in CSS pixels (rows have known heights, so only the visible ones are rendered). */
  readonly rowHeight: number;
  /** A row's own height when it differs (an expanded row); default `rowHeight` for every row. */
  readonly itemHeight?: (item: T) => number;
  /** Height of the scrolling viewport in CSS pixels. */
  readonly height: number;
  readonly label: string;
  readonly itemKey: (item: T) => string;
  readonly renderItem: (item: T) => ComponentChildren;
}

const overscan = 6;

/** Index of the last offset at or below `position` (offsets ascending, the first is 0). */
function rowAt(offsets: readonly number[], position: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle] <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * A list that renders only the rows in view (plus a few), so 1,000 or 100,000 entries cost the same to draw.
 * Positions are set through the CSSOM (allowed by the strict CSP, unlike style attributes in markup).
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, label, itemHeight } = props;
  const [scrollTop, setScrollTop] = useState(0);
  const offsets: number[] = new Array<number>(items.length + 1);
  offsets[0] = 0;
  for (let index = 0; index < items.length; index += 1) {
    offsets[index + 1] = offsets[index] + (itemHeight ? itemHeight(items[index]) : rowHeight);
  }
  const total = offsets[items.length];
  const height = Math.min(props.height, Math.max(rowHeight, total));
  const first = Math.max(0, rowAt(offsets, scrollTop) - overscan);
  const last = Math.min(items.length, rowAt(offsets, scrollTop + height) + 1 + overscan);
  const visible = items.slice(first, last);
  return (
    <div
      class="virtual-viewport"
      style={{ height: `${height}px` }}
      onScroll={(event) => setScrollTop((event.currentTarget as HTMLDivElement).scrollTop)}
      // Focusable so the list scrolls from the keyboard even when its rows hold nothing focusable.
      tabIndex={0}
      role="region"
      aria-label={`${label} (scrollable)`}
    >
      <ul class="virtual-list" aria-label={label} style={{ height: `${total}px` }}>
        {visible.map((item, index) => (
          <li
            key={props.itemKey(item)}
            class="virtual-row"
            aria-setsize={items.length}
            aria-posinset={first + index + 1}
            style={{
              transform: `translateY(${offsets[first + index]}px)`,
              height: `${offsets[first + index + 1] - offsets[first + index]}px`,
            }}
          >
            {props.renderItem(item)}
          </li>
        ))}
      </ul>
    </div>
  );
}
