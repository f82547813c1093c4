import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The view's heading; it takes the focus when the view opens, so keyboard and screen-reader users land on it. */
export function ViewHeading({ children, focusKey }: { readonly children: ComponentChildren; readonly focusKey: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body && focusKey === 'initial') return;
    heading.current?.focus();
  }, [focusKey]);
  return (
    <h2 ref={heading} tabIndex={-1} class="view-heading">
      {children}
    </h2>
  );
}
