/** The engine's source of time, injectable so tests can drive lifecycle windows without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export interface ManualClock extends Clock {
  advance(milliseconds: number): void;
  set(epochMilliseconds: number): void;
}

export function manualClock(startEpochMilliseconds = Date.parse('2026-01-01T00:00:00Z')): ManualClock {
  let current = startEpochMilliseconds;
  return {
    now: () => current,
    advance: (milliseconds) => {
      current += milliseconds;
    },
    set: (epochMilliseconds) => {
      current = epochMilliseconds;
    },
  };
}

export function isoAt(epochMilliseconds: number): string {
  return new Date(epochMilliseconds).toISOString();
}
