import { Redis } from 'ioredis';
import pg from 'pg';
import type { StoreProvider } from '@corekit/abstractions';

/** Hex of a key's UTF-16 code units: the Redis provider's sorted-set member. */
const memberOf = (key: string): string =>
  [...key].map((character) => character.charCodeAt(0).toString(16).padStart(4, '0')).join('');

/**
 * Fills the mirrored store with `entries` records (`entry-000001`...) as the provider stores them, in bulk:
 * one INSERT ... SELECT on PostgreSQL (the provider creates the table first), pipelined HSET/ZADD on Redis.
 */
export async function seed(
  provider: string,
  namespace: string,
  entries: number,
  options: { readonly postgresUrl: string; readonly redisUrl: string; readonly writer: StoreProvider },
): Promise<void> {
  // The provider creates its table (and trigger) or Redis keys on the first write.
  await options.writer.open<{ n: number }>('bench-states', { maxEntries: 1_000_000 }).put('seeded', { n: 0 });
  const now = Date.now();
  if (provider === 'redis') {
    const client = new Redis(options.redisUrl);
    const base = `${namespace}{bench-states}`;
    for (let start = 0; start < entries; start += 1000) {
      const pipeline = client.pipeline();
      for (let index = start; index < Math.min(entries, start + 1000); index++) {
        const key = `entry-${String(index).padStart(6, '0')}`;
        pipeline.hset(`${base}:r`, memberOf(key), `1\n${now}\n\n${key}\n{"n":${index}}`);
        pipeline.zadd(`${base}:k`, 0, memberOf(key));
      }
      await pipeline.exec();
    }
    client.disconnect();
    return;
  }
  const client = new pg.Client({ connectionString: options.postgresUrl });
  await client.connect();
  // ASCII keys: each character's UTF-16 code unit is a zero byte and the character (the provider's sort key).
  await client.query(`SET session_replication_role = replica`);
  await client.query(
    `INSERT INTO "${namespace}" (store_name, key, sort_key, value, version, updated_at_ms)
     SELECT 'bench-states', k, decode(regexp_replace(encode(convert_to(k, 'SQL_ASCII'), 'hex'), '(..)', '00\\1', 'g'), 'hex'),
            json_build_object('n', i), 1, $1
     FROM generate_series(0, $2::int - 1) AS i, LATERAL (SELECT 'entry-' || lpad(i::text, 6, '0') AS k) AS keys`,
    [now, entries],
  );
  await client.query(`ANALYZE "${namespace}"`);
  await client.end();
}
