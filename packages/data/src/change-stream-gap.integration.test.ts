import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMongoDbFakeCollections,
  startMongoDbFakeServer,
  type MongoDbFakeCollections,
  type MongoDbFakeServer,
} from '@corekit/testing';
import { MongoClient } from 'mongodb';
import { closeHosts, passNow, serveChangeStream, type ServedData } from './test-support/data-fixture';

// The MongoDB wire fake of @corekit/testing through the real `mongodb` driver: only the fake lets a test roll
// the log past a resume token (it answers 286 ChangeStreamHistoryLost, as a real server does).
let fake: MongoDbFakeServer;
let collections: MongoDbFakeCollections;
let client: MongoClient;
const folders: string[] = [];

beforeEach(async () => {
  collections = createMongoDbFakeCollections();
  fake = await startMongoDbFakeServer({ commands: collections.commands });
  client = new MongoClient(`${fake.url}/?directConnection=true`, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
});
afterEach(async () => {
  await closeHosts();
  await client.close();
  await fake.close();
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const pass = (served: ServedData) => passNow(served, { job: 'changeStreamJob' });
const serve = (directory: string) =>
  serveChangeStream({ url: `${fake.url}/?directConnection=true`, database: 'shop', directory });

describe('a change stream whose resume token the oplog no longer holds', () => {
  it('is a stored gap, not a stream from now; accepting it resumes from now and records who', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'data-change-stream-gap-'));
    folders.push(directory);
    const stock = client.db('shop').collection('stock');
    const outbox = client.db('shop').collection('corekit_cdc_outbox');
    const first = await serve(directory);
    await pass(first);
    await stock.insertMany([{ sku: 'a' }, { sku: 'b' }]);
    await pass(first);
    await closeHosts();

    // While no pump runs, changes are written and the oplog rolls past the stored token.
    await stock.insertMany([{ sku: 'lost-1' }, { sku: 'lost-2' }]);
    collections.rollLog();
    const second = await serve(directory);
    expect((await pass(second)).captures[0]).toMatchObject({ outcome: 'failed', failureKind: 'gap' });
    const state = (await second.request('/engine/cdc-captures/runtime/stock')).body;
    expect(state).toMatchObject({
      failureKind: 'gap',
      completeness: { state: 'not-guaranteed', reason: expect.stringContaining('CDC_GAP_RESUME_TOKEN_LOST') },
      gap: { reasonCode: 'CDC_GAP_RESUME_TOKEN_LOST', resolution: null },
    });
    await pass(second);
    await stock.insertOne({ sku: 'after-gap' });
    await pass(second);
    expect(await outbox.find({}).toArray()).toHaveLength(2); // nothing after the gap until the operator decides

    const accepted = await second.request('/engine/cdc-captures/runtime/stock/gap/accept', {
      token: 'ok',
      body: {},
    });
    expect(accepted.status).toBe(200);
    expect(
      (await second.request('/engine/cdc-captures/runtime/stock/gap/re-snapshot', { token: 'ok', body: {} }))
        .body,
    ).toMatchObject({ code: 'CDC_RESTART_UNSUPPORTED' });
    await pass(second);
    await stock.insertOne({ sku: 'after-accept' });
    await pass(second);
    const skus = (await outbox.find({}).toArray()).map(
      (document) => (document.payload as { sku: string }).sku,
    );
    expect(skus).toEqual(['a', 'b', 'after-accept']);
    expect((await second.request('/engine/cdc-captures/runtime/stock')).body).toMatchObject({
      gap: null,
      lastResolvedGap: {
        reasonCode: 'CDC_GAP_RESUME_TOKEN_LOST',
        resolution: { action: 'accept-gap', requestedBy: 'authorized' },
      },
    });
  });
});
