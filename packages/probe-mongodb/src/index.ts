export { addMongoDbHealth } from './add-mongodb-health';
export { mongoDbHealthProbe } from './mongodb-health-probe';
export {
  mongoDbHealthEntryShape,
  mongoDbHealthOptionsSchema,
  mongoDbDefaultPort,
  defaultHealthCommand,
} from './mongodb-health-options';
export type { MongoDbHealthOptions } from './mongodb-health-options';
