import type { FailureContext, RuntimeState } from '@corekit/abstractions';

/** The facts the lifecycle writes and health reporting reads; one object shared by both. */
export interface LifecycleState {
  state: RuntimeState;
  startedAt: number | null;
  shutdownStartedAt: number | null;
  failedAt: number | null;
  restartCount: number;
  lastFailure: FailureContext | null;
  /** The error behind `lastFailure` (the cause of a later ENGINE_NOT_RESTARTABLE); never serialized. */
  lastError: unknown;
}

export function initialLifecycleState(): LifecycleState {
  return {
    state: 'Created',
    startedAt: null,
    shutdownStartedAt: null,
    failedAt: null,
    restartCount: 0,
    lastFailure: null,
    lastError: undefined,
  };
}
