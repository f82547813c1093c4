/**
 * The real Neo4j the tests use instead of the fake when NEO4J_URI is set (the one variable turbo.json
 * declares). Credentials and a database ride in the variable the way a URL carries them, and are taken out
 * before the URI reaches the probe: `neo4j://neo4j:secret@127.0.0.1:7687/movies` is user `neo4j`, password
 * `secret`, database `movies` (which must exist; default `neo4j`) and Uri `neo4j://127.0.0.1:7687`.
 */
export function realNeo4j():
  { uri: string; username: string; password: string; database: string } | undefined {
  const raw = process.env.NEO4J_URI;
  if (!raw) return undefined;
  const url = new URL(raw);
  const username = decodeURIComponent(url.username) || 'neo4j';
  const password = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'neo4j';
  return { uri: `${url.protocol}//${url.host}${url.search}`, username, password, database };
}
