import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

let firstView = true;

/**
 * The view's heading. After a navigation it takes the focus, so keyboard and screen-reader users land on the
 * new view; the first view of a page load leaves the focus where the browser put it.
 */
export function ViewHeading({
  children,
  focusKey,
}: {
  readonly children: ComponentChildren;
  readonly focusKey: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (firstView) {
      firstView = false;
      return;
    }
    heading.current?.focus();
  }, [focusKey]);
  return (
    <h2 ref={heading} tabIndex={-1} class="view-heading">
      {children}
    </h2>
  );
}
