import { CoreError } from '@corekit/abstractions';

/** The error a helper rejects with when its AbortSignal fires (the engine's timeout or shutdown). */
export function abortError(signal: AbortSignal): CoreError {
  const reason = signal.reason as { message?: unknown } | undefined;
  const detail = reason && typeof reason.message === 'string' ? ` (${reason.message})` : '';
  return new CoreError('ABORTED', `The check was aborted before the upstream answered${detail}.`);
}

/**
 * Settles like `work`, or rejects with code ABORTED as soon as `signal` aborts, whichever comes first.
 * `onAbort` (typically: destroy the client) runs at most once, only when the signal wins. A rejection of
 * `work` after the abort is swallowed so it never surfaces as an unhandled rejection.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  work.catch(() => undefined);
  let aborted = false;
  const runOnAbort = () => {
    if (aborted) return;
    aborted = true;
    try {
      onAbort?.();
    } catch {
      // destroying a client must never turn an abort into a different failure
    }
  };
  if (signal.aborted) {
    runOnAbort();
    return Promise.reject(abortError(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const listener = () => {
      runOnAbort();
      reject(abortError(signal));
    };
    signal.addEventListener('abort', listener, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', listener);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', listener);
        reject(error);
      },
    );
  });
}
