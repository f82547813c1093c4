export { startNeo4jFakeServer, NEO4J_UNAUTHORIZED } from './neo4j-fake-server';
export type { Neo4jFakeServer, Neo4jFakeServerOptions, Neo4jFakeServerRecord } from './neo4j-fake-server';
