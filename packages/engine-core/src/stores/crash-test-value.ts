/** The large value the SIGKILL test writes: every block names its sequence number, so a torn value shows. */
export interface CrashTestValue {
  readonly seq: number;
  readonly blocks: readonly string[];
}

export const crashTestBlocks = 4000;

export function crashTestValue(seq: number): CrashTestValue {
  const filler = 'x'.repeat(400);
  return { seq, blocks: Array.from({ length: crashTestBlocks }, (_, index) => `${seq}-${index}-${filler}`) };
}

/** True when `value` is exactly what `crashTestValue(value.seq)` wrote. */
export function isIntactCrashTestValue(value: unknown): boolean {
  const candidate = value as CrashTestValue;
  if (!candidate || !Number.isSafeInteger(candidate.seq)) return false;
  return JSON.stringify(candidate) === JSON.stringify(crashTestValue(candidate.seq));
}
