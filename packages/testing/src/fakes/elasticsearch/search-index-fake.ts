/**
 * The document APIs both search-cluster fakes (Elasticsearch 8, OpenSearch 2) share: index management,
 * `_bulk`, `_search`, `_count` and `_refresh`, on an in-memory index per name. Enough for the retrieval
 * providers, answering with the bodies the REST references document:
 * - `HEAD /<index>` 200/404; `PUT /<index>` (settings, mappings) 200 `acknowledged`, 400
 *   `resource_already_exists_exception` when present; `DELETE /<index>`;
 * - `POST /_bulk` and `/<index>/_bulk` (NDJSON `index`, `create`, `delete`): per-item status and result,
 *   `errors` true when an item failed (`create` of an existing id answers 409, `delete` of a missing id 404);
 * - `POST|GET /<index>/_search` with `match_all` or `multi_match` (fields with `^boost`, operator `or`/`and`),
 *   `size`, `from`, `sort` on one keyword field with `search_after`, `_source` (false or a list of fields),
 *   `track_total_hits` (a number caps `hits.total` with relation `gte`) and `highlight` (pre/post tags,
 *   per-field `fragment_size`);
 * - `/<index>/_count`, `/<index>/_refresh`; an unknown index answers 404 `index_not_found_exception`.
 * Scoring is an approximation, not Lucene's: BM25 (k1 1.2, b 0.75) per field over lower-cased word tokens
 * with a prefix-free exact term match, the field score multiplied by its boost, best field wins
 * (`best_fields`). Ranking order on simple corpora matches a real cluster; absolute scores do not. Writes
 * are visible to search at once (as if every request refreshed).
 */
import type { FakeHttpResponse, RecordedHttpRequest } from '../../http-fake-server';

type Source = Record<string, unknown>;
interface FakeIndex {
  readonly mappings: unknown;
  readonly documents: Map<string, Source>;
}

/** The in-memory indices of one fake server. */
export type SearchIndexState = Map<string, FakeIndex>;

export function createSearchIndexState(): SearchIndexState {
  return new Map();
}

const tokenPattern = /[\p{L}\p{N}_]+/gu;
const tokens = (text: string) => [...text.toLowerCase().matchAll(tokenPattern)].map((match) => match[0]);

function error(status: number, type: string, reason: string, index?: string): FakeHttpResponse {
  const cause = { type, reason, ...(index ? { index } : {}) };
  return { status, body: { error: { root_cause: [cause], ...cause }, status } };
}

const missing = (index: string) => error(404, 'index_not_found_exception', `no such index [${index}]`, index);

function valueAt(source: Source, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Source)[key] : undefined),
      source,
    );
}

function pick(source: Source, wanted: unknown): Source | undefined {
  if (wanted === false) return undefined;
  if (!Array.isArray(wanted)) return source;
  const picked: Source = {};
  for (const path of wanted as string[]) {
    const value = valueAt(source, path);
    if (value !== undefined) picked[path] = value;
  }
  return picked;
}

function bulk(state: SearchIndexState, body: string, defaultIndex: string | undefined): FakeHttpResponse {
  const lines = body.split('\n').filter((line) => line.trim().length > 0);
  const items: Source[] = [];
  let errors = false;
  for (let at = 0; at < lines.length; at += 1) {
    const action = JSON.parse(lines[at]!) as Record<string, { _index?: string; _id?: string }>;
    const [kind, meta] = Object.entries(action)[0]!;
    const indexName = meta._index ?? defaultIndex ?? '';
    const id = meta._id ?? `auto-${at}`;
    const index = state.get(indexName);
    const answer = (status: number, extra: Source) => {
      if (status >= 300) errors = true;
      items.push({ [kind]: { _index: indexName, _id: id, status, ...extra } });
    };
    if (kind === 'delete') {
      if (!index)
        answer(404, { error: { type: 'index_not_found_exception', reason: `no such index [${indexName}]` } });
      else {
        const deleted = index.documents.delete(id);
        answer(deleted ? 200 : 404, { result: deleted ? 'deleted' : 'not_found' });
      }
      continue;
    }
    const document = JSON.parse(lines[++at] ?? '{}') as Source;
    if (!index) {
      answer(404, { error: { type: 'index_not_found_exception', reason: `no such index [${indexName}]` } });
    } else if (kind === 'create' && index.documents.has(id)) {
      answer(409, {
        error: { type: 'version_conflict_engine_exception', reason: `[${id}]: document already exists` },
      });
    } else {
      const existed = index.documents.has(id);
      index.documents.set(id, document);
      answer(existed ? 200 : 201, { result: existed ? 'updated' : 'created', _version: 1 });
    }
  }
  return { status: 200, body: { took: 1, errors, items } };
}

interface MultiMatch {
  readonly query: string;
  readonly fields: readonly string[];
  readonly operator?: string;
}

function scorer(index: FakeIndex, match: MultiMatch) {
  const terms = [...new Set(tokens(match.query))];
  const fields = match.fields.map((spec) => {
    const [path, boost] = spec.split('^');
    return { path: path!, boost: boost ? Number(boost) : 1 };
  });
  const documents = [...index.documents.values()];
  const stats = fields.map(({ path }) => {
    const lengths = documents.map((source) => tokens(String(valueAt(source, path) ?? '')).length);
    const average = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length);
    const frequency = new Map<string, number>();
    for (const source of documents) {
      for (const term of new Set(tokens(String(valueAt(source, path) ?? ''))))
        frequency.set(term, (frequency.get(term) ?? 0) + 1);
    }
    return { average, frequency };
  });
  return (source: Source): number | null => {
    let best = 0;
    const matched = new Set<string>();
    fields.forEach(({ path, boost }, fieldIndex) => {
      const words = tokens(String(valueAt(source, path) ?? ''));
      const { average, frequency } = stats[fieldIndex]!;
      let score = 0;
      for (const term of terms) {
        const count = words.filter((word) => word === term).length;
        if (count === 0) continue;
        matched.add(term);
        const df = frequency.get(term) ?? 0;
        const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
        score +=
          (idf * (count * 2.2)) / (count + 1.2 * (0.25 + (0.75 * words.length) / Math.max(1, average)));
      }
      best = Math.max(best, score * boost);
    });
    const all = match.operator === 'and' ? matched.size === terms.length : matched.size > 0;
    return all && terms.length > 0 ? best : null;
  };
}

function highlight(source: Source, spec: Source | undefined, query: string): Source | undefined {
  if (!spec) return undefined;
  const terms = new Set(tokens(query));
  const pre = (spec.pre_tags as string[] | undefined)?.[0] ?? '<em>';
  const post = (spec.post_tags as string[] | undefined)?.[0] ?? '</em>';
  const out: Source = {};
  for (const [path, options] of Object.entries((spec.fields as Record<string, Source>) ?? {})) {
    const text = String(valueAt(source, path) ?? '');
    if (!tokens(text).some((word) => terms.has(word))) continue;
    const size = Number(options?.fragment_size ?? spec.fragment_size ?? 100);
    const first = [...text.matchAll(tokenPattern)].find((match) => terms.has(match[0].toLowerCase()))!;
    const start = Math.max(0, first.index - Math.floor(size / 4));
    const fragment = text
      .slice(start, start + size)
      .replace(tokenPattern, (word) => (terms.has(word.toLowerCase()) ? `${pre}${word}${post}` : word));
    out[path] = [fragment];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function search(index: FakeIndex, name: string, body: Source): FakeHttpResponse {
  const query = (body.query ?? { match_all: {} }) as Source;
  const multi = query.multi_match as MultiMatch | undefined;
  const score = multi ? scorer(index, multi) : () => 1;
  let hits = [...index.documents.entries()].flatMap(([id, source]) => {
    const value = score(source);
    return value === null ? [] : [{ id, source, score: value }];
  });
  const sort = (body.sort as Array<Record<string, string | { order?: string }>> | undefined)?.[0];
  const sortField = sort ? Object.keys(sort)[0]! : undefined;
  const sortKey = (hit: { id: string; source: Source }) =>
    String(sortField === '_id' ? hit.id : valueAt(hit.source, sortField!));
  if (sortField) {
    hits.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
    const after = (body.search_after as unknown[] | undefined)?.[0];
    if (after !== undefined) hits = hits.filter((hit) => sortKey(hit) > String(after));
  } else {
    hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  }
  const total = hits.length;
  const cap = typeof body.track_total_hits === 'number' ? body.track_total_hits : 10_000;
  const from = Number(body.from ?? 0);
  const page = hits.slice(from, from + Number(body.size ?? 10));
  return {
    status: 200,
    body: {
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        total: { value: Math.min(total, cap), relation: total > cap ? 'gte' : 'eq' },
        max_score: sortField ? null : (page[0]?.score ?? null),
        hits: page.map((hit) => ({
          _index: name,
          _id: hit.id,
          _score: sortField ? null : hit.score,
          ...(pick(hit.source, body._source) ? { _source: pick(hit.source, body._source) } : {}),
          ...(sortField ? { sort: [sortKey(hit)] } : {}),
          ...(highlight(hit.source, body.highlight as Source | undefined, multi?.query ?? '')
            ? { highlight: highlight(hit.source, body.highlight as Source | undefined, multi?.query ?? '') }
            : {}),
        })),
      },
    },
  };
}

/** Answers a document or index-management call, or undefined when the request is not one of them. */
export function handleSearchIndexRequest(
  state: SearchIndexState,
  request: RecordedHttpRequest,
): FakeHttpResponse | undefined {
  const parts = request.path.split('/').filter(Boolean).map(decodeURIComponent);
  const json = () => (request.body ? (JSON.parse(request.body) as Source) : {});
  if (parts[0] === '_bulk' && request.method !== 'GET') return bulk(state, request.body, undefined);
  if (parts.length === 0 || parts[0]!.startsWith('_')) return undefined;
  const [name, action] = parts as [string, string | undefined];
  const index = state.get(name);
  if (action === undefined) {
    if (request.method === 'HEAD') return { status: index ? 200 : 404 };
    if (request.method === 'PUT') {
      if (index)
        return error(400, 'resource_already_exists_exception', `index [${name}] already exists`, name);
      state.set(name, { mappings: json().mappings ?? {}, documents: new Map() });
      return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: name } };
    }
    if (request.method === 'DELETE') {
      if (!index) return missing(name);
      state.delete(name);
      return { status: 200, body: { acknowledged: true } };
    }
    if (request.method === 'GET')
      return index ? { status: 200, body: { [name]: { mappings: index.mappings } } } : missing(name);
    return undefined;
  }
  if (action === '_bulk') return bulk(state, request.body, name);
  if (!index) return ['_search', '_count', '_refresh'].includes(action) ? missing(name) : undefined;
  if (action === '_search') return search(index, name, json());
  if (action === '_count')
    return {
      status: 200,
      body: { count: index.documents.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } },
    };
  if (action === '_refresh')
    return { status: 200, body: { _shards: { total: 1, successful: 1, failed: 0 } } };
  return undefined;
}

/**
 * The end of both search fakes' handlers: the index APIs above (bodies as JSON text with the server's
 * headers), else 404 `illegal_argument_exception` "no handler found for uri [...] and method [...]", as
 * Elasticsearch and OpenSearch answer an unknown route.
 */
export function searchIndexOrNotFound(
  state: SearchIndexState,
  request: RecordedHttpRequest,
  headers: Record<string, string>,
): FakeHttpResponse {
  const indexAnswer = handleSearchIndexRequest(state, request);
  if (indexAnswer) {
    return {
      ...indexAnswer,
      headers,
      body: indexAnswer.body === undefined ? undefined : JSON.stringify(indexAnswer.body),
    };
  }
  const reason = `no handler found for uri [${request.path}] and method [${request.method}]`;
  return {
    status: 404,
    headers,
    body: JSON.stringify({
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason }],
        type: 'illegal_argument_exception',
        reason,
      },
      status: 404,
    }),
  };
}
