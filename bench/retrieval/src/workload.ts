/** A deterministic generated corpus and query set shared by every benchmark section. */

const vocabulary = (() => {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ren',
    'ta',
    'vos',
    'qui',
    'dre',
    'nu',
    'pel',
    'sar',
    'tor',
    'ul',
    'zen',
  ];
  const words: string[] = [];
  for (const a of syllables)
    for (const b of syllables) for (const c of ['', 'n', 'ter', 'ix']) words.push(a + b + c);
  return words;
})();

/** A small linear congruential generator: the same corpus on every run. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Zipf-like pick: low ranks are common words, high ranks rare ones. */
function word(random: () => number): string {
  const rank = Math.floor(vocabulary.length * Math.pow(random(), 3));
  return vocabulary[rank]!;
}

function sentence(random: () => number, words: number): string {
  return Array.from({ length: words }, () => word(random)).join(' ');
}

export interface BenchDocument {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  readonly updatedAt: number;
}

export function documents(count: number, seed = 7): BenchDocument[] {
  const random = generator(seed);
  return Array.from({ length: count }, (_, index) => ({
    id: `doc-${index}`,
    title: sentence(random, 6),
    body: sentence(random, 60),
    updatedAt: 1_700_000_000_000 + index,
  }));
}

/**
 * Queries of one to three words drawn uniformly from the vocabulary: mostly mid- and low-frequency terms, as
 * people search (the few very common words of the skewed corpus would match nearly every document).
 */
export function queries(count: number, seed = 11): string[] {
  const random = generator(seed);
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 3) },
      () => vocabulary[Math.floor(random() * vocabulary.length)]!,
    ).join(' '),
  );
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
