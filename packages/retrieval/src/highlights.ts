import type { KnowledgeHighlight } from './index-provider';

const wordPattern = /[\p{L}\p{N}_]+/gu;
/** Characters of context kept around the first matched term. */
const window = 160;

/**
 * Builds highlights for a provider that has no highlighter of its own: per field (in order) that contains a
 * matched term, one excerpt of about 160 characters around the first match with every matched word wrapped in
 * `<mark>`…`</mark>`. `terms` are lower-cased index terms; a word matches when its lower-cased form equals a
 * term or starts with one (prefix matches). The text is not HTML-escaped: treat the snippet as text whose only
 * markup is the mark pair.
 */
export function highlightFields(
  fields: readonly string[],
  text: Readonly<Record<string, string>>,
  terms: readonly string[],
  max: number,
): KnowledgeHighlight[] {
  if (max <= 0 || terms.length === 0) return [];
  const lowered = terms.map((term) => term.toLowerCase()).filter((term) => term.length > 0);
  const matches = (word: string) => {
    const lower = word.toLowerCase();
    return lowered.some((term) => lower === term || (term.length >= 3 && lower.startsWith(term)));
  };
  const highlights: KnowledgeHighlight[] = [];
  for (const field of fields) {
    if (highlights.length >= max) break;
    const value = text[field] ?? '';
    const snippet = excerpt(value, matches);
    if (snippet !== null) highlights.push({ field, snippet });
  }
  return highlights;
}

function excerpt(value: string, matches: (word: string) => boolean): string | null {
  const words = [...value.matchAll(wordPattern)].filter((match) => matches(match[0]));
  if (words.length === 0) return null;
  const first = words[0]!.index;
  let start = Math.max(0, first - window / 4);
  let end = Math.min(value.length, start + window);
  start = Math.max(0, Math.min(start, end - window));
  // Do not cut words at the edges.
  while (start > 0 && /[\p{L}\p{N}_]/u.test(value[start - 1]!)) start -= 1;
  while (end < value.length && /[\p{L}\p{N}_]/u.test(value[end]!)) end += 1;
  let out = '';
  let cursor = start;
  for (const match of words) {
    const at = match.index;
    if (at < start || at + match[0].length > end) continue;
    out += value.slice(cursor, at) + '<mark>' + match[0] + '</mark>';
    cursor = at + match[0].length;
  }
  out += value.slice(cursor, end);
  const squeezed = out.replace(/\s+/g, ' ').trim();
  return (start > 0 ? '…' : '') + squeezed + (end < value.length ? '…' : '');
}
