import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  /** Height of one row in CSS pixels (rows are fixed-height so only the visible ones are rendered). */
  readonly rowHeight: number;
  /** Height of the scrolling viewport in CSS pixels. */
  readonly height: number;
  readonly label: string;
  readonly itemKey: (item: T) => string;
  readonly renderItem: (item: T) => ComponentChildren;
}

const overscan = 6;

/**
 * A list that renders only the rows in view (plus a few), so 1,000 or 100,000 entries cost the same to draw.
 * Positions are set through the CSSOM (allowed by the strict CSP, unlike style attributes in markup).
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, label } = props;
  const [scrollTop, setScrollTop] = useState(0);
  const height = Math.min(props.height, Math.max(rowHeight, items.length * rowHeight));
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);
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
      <ul class="virtual-list" aria-label={label} style={{ height: `${items.length * rowHeight}px` }}>
        {visible.map((item, index) => (
          <li
            key={props.itemKey(item)}
            class="virtual-row"
            aria-setsize={items.length}
            aria-posinset={first + index + 1}
            style={{ transform: `translateY(${(first + index) * rowHeight}px)`, height: `${rowHeight}px` }}
          >
            {props.renderItem(item)}
          </li>
        ))}
      </ul>
    </div>
  );
}
