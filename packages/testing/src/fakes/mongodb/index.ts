export { startMongoDbFakeServer } from './mongodb-fake-server';
export type { MongoDbFakeServer, MongoDbFakeServerOptions, MongoCommandRecord } from './mongodb-fake-server';
