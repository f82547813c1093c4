export { addNeo4jHealth } from './add-neo4j-health';
export { neo4jHealthProbe } from './neo4j-health-probe';
export {
  neo4jHealthEntryShape,
  neo4jHealthOptionsSchema,
  neo4jSchemes,
  neo4jDefaultPort,
  neo4jUri,
} from './neo4j-health-options';
export type { Neo4jHealthOptions } from './neo4j-health-options';
