import { useEffect, useRef } from 'preact/hooks';
import type { ConsoleState } from '../console-store';
import { DependencyDetailView } from './dependency-detail';

/**
 * The dependency detail as a modal `<dialog>` over the overview (`#/dependencies/{id}`, so a deep link opens it
 * too): opening moves the focus to its heading, the browser keeps the focus inside and closes it on Escape, and
 * closing (Escape, the Close button) goes back to `#/` and puts the focus back on the row's link it came from.
 */
export function DependencyDialog({
  id,
  state,
  now,
}: {
  readonly id: string;
  readonly state: ConsoleState;
  readonly now: number;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    element.querySelector<HTMLElement>('h2')?.focus();
    const closed = () => {
      if (location.hash.startsWith('#/dependencies/')) location.hash = '#/';
      returnFocusToRow(id);
    };
    element.addEventListener('close', closed);
    return () => element.removeEventListener('close', closed);
  }, [id]);
  return (
    <dialog ref={dialog} class="detail-dialog" aria-labelledby="dependency-heading" data-dialog="dependency">
      <p class="dialog-close">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close <span class="visually-hidden">the detail</span>
        </button>
      </p>
      <DependencyDetailView id={id} state={state} now={now} />
    </dialog>
  );
}

/** Focus back on the row's link (once the overview rendered without the dialog); the list when it scrolled away. */
function returnFocusToRow(id: string): void {
  requestAnimationFrame(() => {
    const link = document.querySelector<HTMLElement>(
      `[data-dependency="${CSS.escape(id)}"] a.dependency-name`,
    );
    (link ?? document.querySelector<HTMLElement>('.virtual-viewport'))?.focus();
  });
}
