/**
 * The SQL of the PostgreSQL provider, kept in one place so the benchmark can run the same statements bare.
 * Identifiers (table and field names) are validated before they reach these builders: table names match
 * `[a-z_][a-z0-9_]{0,40}`, field names `[A-Za-z][A-Za-z0-9_]{0,63}`.
 */

const weights = ['A', 'B', 'C', 'D'] as const;

/** The tsvector expression of one row: each field weighted by its position (A, B, C, then D for the rest). */
export function vectorExpression(fields: readonly string[], row: string): string {
  return fields
    .map(
      (field, index) =>
        `setweight(to_tsvector($1::regconfig, coalesce(${row}.fields->>'${field}', '')), '${weights[Math.min(index, 3)]}')`,
    )
    .join(' || ');
}

export function createTableSql(table: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      collection_id text NOT NULL,
      doc_id text NOT NULL,
      fields jsonb NOT NULL,
      metadata jsonb NOT NULL,
      updated_at bigint NOT NULL,
      search tsvector NOT NULL,
      PRIMARY KEY (collection_id, doc_id)
    )`,
    `CREATE INDEX IF NOT EXISTS ${table}_search_gin ON ${table} USING GIN (search)`,
  ];
}

/** Upsert of a batch: $1 config, $2 collection id, $3 ids, $4 fields (jsonb[]), $5 metadata (jsonb[]), $6 updated (bigint[]). */
export function upsertSql(table: string, fields: readonly string[]): string {
  return `INSERT INTO ${table} (collection_id, doc_id, fields, metadata, updated_at, search)
    SELECT $2, d.doc_id, d.fields, d.metadata, d.updated_at, ${vectorExpression(fields, 'd')}
    FROM unnest($3::text[], $4::jsonb[], $5::jsonb[], $6::bigint[]) AS d(doc_id, fields, metadata, updated_at)
    ON CONFLICT (collection_id, doc_id) DO UPDATE
      SET fields = EXCLUDED.fields, metadata = EXCLUDED.metadata, updated_at = EXCLUDED.updated_at, search = EXCLUDED.search`;
}

/**
 * The ranked query: any query word may match (the words of `plainto_tsquery` joined with OR), ranked by
 * `ts_rank` over the weighted vector, best first; `ts_headline` marks matches in the returned rows only.
 * $1 config, $2 collection id, $3 text, $4 limit.
 */
export function querySql(table: string, fields: readonly string[]): string {
  const headlines = fields
    .map(
      (field) =>
        `ts_headline($1::regconfig, coalesce(top.fields->>'${field}', ''), top.query, 'StartSel=<mark>, StopSel=</mark>, MaxWords=30, MinWords=12, MaxFragments=1') AS "h_${field}"`,
    )
    .join(',\n      ');
  return `WITH q AS (
      SELECT nullif(replace(plainto_tsquery($1::regconfig, $3)::text, '&', '|'), '')::tsquery AS query
    ), ranked AS (
      SELECT t.doc_id, t.fields, t.metadata, t.updated_at, ts_rank(t.search, q.query) AS score, q.query,
             count(*) OVER () AS total
      FROM ${table} t, q
      WHERE t.collection_id = $2 AND q.query IS NOT NULL AND t.search @@ q.query
      ORDER BY score DESC, t.doc_id
      LIMIT $4
    )
    SELECT top.doc_id, top.metadata, top.updated_at, top.score, top.total,
      ${headlines}
    FROM ranked top
    ORDER BY top.score DESC, top.doc_id`;
}

export const versionsSql = (table: string) =>
  `SELECT doc_id, updated_at FROM ${table} WHERE collection_id = $1`;
export const removeSql = (table: string) =>
  `DELETE FROM ${table} WHERE collection_id = $1 AND doc_id = ANY($2::text[])`;
export const countSql = (table: string) =>
  `SELECT count(*)::int AS count FROM ${table} WHERE collection_id = $1`;
export const analyzeSql = (table: string) => `ANALYZE ${table}`;
