// The fake's collections and change streams, driven by the real `mongodb` driver.
import { MongoClient } from 'mongodb';
import { createMongoDbFakeCollections } from './mongodb-change-streams';
import { startMongoDbFakeServer, type MongoDbFakeServer } from './mongodb-fake-server';

let server: MongoDbFakeServer;
let client: MongoClient;
const collections = createMongoDbFakeCollections();

beforeAll(async () => {
  server = await startMongoDbFakeServer({ commands: collections.commands });
  client = new MongoClient(server.url, { directConnection: true, serverSelectionTimeoutMS: 2000 });
  await client.connect();
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('MongoDB fake change streams through the real driver', () => {
  it('streams inserts after the open, resumes after a token, and refuses an unknown token', async () => {
    const orders = client.db('shop').collection('orders');
    await orders.insertOne({ _id: 'before' as never, n: 0 });
    const stream = orders.watch();
    expect(await stream.tryNext()).toBeNull();
    await orders.insertMany([
      { _id: 'a' as never, n: 1 },
      { _id: 'b' as never, n: 2 },
    ]);
    await client.db('shop').collection('other').insertOne({ n: 9 });
    const first = await stream.tryNext();
    expect(first).toMatchObject({
      operationType: 'insert',
      fullDocument: { _id: 'a', n: 1 },
      ns: { db: 'shop', coll: 'orders' },
    });
    const token = first!._id;
    await stream.close();

    const resumed = orders.watch([], { resumeAfter: token });
    const next = await resumed.tryNext();
    expect(next && 'fullDocument' in next ? next.fullDocument : undefined).toEqual({ _id: 'b', n: 2 });
    expect(await resumed.tryNext()).toBeNull();
    expect(resumed.resumeToken).toBeDefined();
    await resumed.close();

    const bad = orders.watch([], { resumeAfter: { _data: 'FFFFFFFFFFFFFFFF' } });
    await expect(bad.tryNext()).rejects.toMatchObject({ code: 260 });
    await bad.close();
    expect(server.commands.some((command) => command.commandName === 'getMore')).toBe(true);
  });

  it('answers 286 ChangeStreamHistoryLost for a token the rolled log no longer holds; streams from now work', async () => {
    const events = client.db('shop').collection('events');
    const stream = events.watch();
    expect(await stream.tryNext()).toBeNull();
    await events.insertOne({ n: 1 });
    const token = (await stream.tryNext())!._id;
    await stream.close();
    await events.insertOne({ n: 2 });
    collections.rollLog();
    const lost = events.watch([], { resumeAfter: token });
    await expect(lost.tryNext()).rejects.toMatchObject({ code: 286, codeName: 'ChangeStreamHistoryLost' });
    await lost.close();
    const fresh = events.watch();
    expect(await fresh.tryNext()).toBeNull();
    await events.insertOne({ n: 3 });
    const next = await fresh.tryNext();
    expect(next && 'fullDocument' in next ? next.fullDocument : undefined).toMatchObject({ n: 3 });
    await fresh.close();
  });

  it('refuses duplicate _id values with 11000 and finds by equality', async () => {
    const outbox = client.db('shop').collection('outbox');
    await outbox.insertMany([
      { _id: 'x' as never, capture: 'c1' },
      { _id: 'y' as never, capture: 'c2' },
    ]);
    await expect(
      outbox.insertMany([{ _id: 'x' as never }, { _id: 'z' as never, capture: 'c1' }], { ordered: false }),
    ).rejects.toMatchObject({
      code: 11000,
    });
    expect((await outbox.find({ capture: 'c1' }).toArray()).map((document) => document._id)).toEqual([
      'x',
      'z',
    ]);
  });
});
