export { startMongoDbFakeServer } from './mongodb-fake-server';
export type { MongoDbFakeServer, MongoDbFakeServerOptions, MongoCommandRecord } from './mongodb-fake-server';
export { createMongoDbFakeCollections } from './mongodb-change-streams';
export type { MongoDbFakeCollections } from './mongodb-change-streams';
