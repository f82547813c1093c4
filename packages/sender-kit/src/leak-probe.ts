import { randomBytes } from 'node:crypto';

/**
 * The secret-leak check every sender package runs: seed distinctive secrets, bodies and addresses into
 * configuration and invitations, run the sender, then search every recorded output (outcomes, run state,
 * log records, surfaces, snapshot, diagnostics, metrics) for them. Test helper, no jest dependency.
 */
export interface LeakSeeds {
  /** A distinctive value per name (`apiKey`, `password`, `textBody`, `recipient`...). */
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Distinctive values for `names`: random, long enough to never occur by chance, and shaped as the field
 * wants (an email address for names containing `email` or `recipient`).
 */
export function createLeakSeeds(names: readonly string[]): LeakSeeds {
  const values: Record<string, string> = {};
  for (const name of names) {
    const mark = `leak${randomBytes(6).toString('hex')}`;
    values[name] = /email|recipient|address/i.test(name) ? `${mark}@leak-probe.test` : `${name}-${mark}`;
  }
  return { values };
}

/** A place something was found: the seed's name and the output's name. */
export interface Leak {
  readonly seed: string;
  readonly output: string;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) => (item instanceof Map ? [...item.entries()] : item)) ?? ''
    );
  } catch {
    return String(value);
  }
}

/**
 * Every (seed, output) pair where the output contains the seed, as written or in lower case, or the
 * seed's distinctive mark alone (so a truncated or re-encoded copy is caught too). Empty means no leak.
 */
export function findLeaks(seeds: LeakSeeds, outputs: Readonly<Record<string, unknown>>): Leak[] {
  const leaks: Leak[] = [];
  for (const [output, value] of Object.entries(outputs)) {
    const haystack = text(value);
    const lower = haystack.toLowerCase();
    for (const [seed, needle] of Object.entries(seeds.values)) {
      const mark = /leak[0-9a-f]{12}/.exec(needle)?.[0] ?? needle;
      if (haystack.includes(needle) || lower.includes(needle.toLowerCase()) || haystack.includes(mark)) {
        leaks.push({ seed, output });
      }
    }
  }
  return leaks;
}

/** The outputs of a started engine to search: surfaces, snapshot, diagnostics and, when given, log text. */
export function engineOutputs(
  engine: {
    technologySurfaces(): unknown;
    snapshot(): unknown;
    diagnostics(): unknown;
  },
  logText?: string,
): Record<string, unknown> {
  return {
    technologySurfaces: engine.technologySurfaces(),
    snapshot: engine.snapshot(),
    diagnostics: engine.diagnostics(),
    ...(logText !== undefined ? { logs: logText } : {}),
  };
}
