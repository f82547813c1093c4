import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMongoDbFakeCollections,
  describeCdcProviderConformance,
  startMongoDbFakeServer,
  type CdcConformanceSource,
  type MongoDbFakeCollections,
  type MongoDbFakeServer,
} from '@corekit/testing';
import { MongoClient } from 'mongodb';
import { startConformanceHost } from './test-support/conformance-host';

// The CDC provider conformance suite of @corekit/testing on the MongoDB change-stream provider, against the
// MongoDB wire fake of @corekit/testing through the real driver (one fake per source; the fake rolls its log to
// lose a resume token and answers 286 ChangeStreamHistoryLost as a real server does).
const started: Array<{ fake: MongoDbFakeServer; client: MongoClient }> = [];
afterAll(async () => {
  for (const { fake, client } of started.splice(0)) {
    await client.close();
    await fake.close();
  }
});

async function createSource(test: string): Promise<CdcConformanceSource> {
  const collections: MongoDbFakeCollections = createMongoDbFakeCollections();
  const fake = await startMongoDbFakeServer({ commands: collections.commands });
  const url = `${fake.url}/?directConnection=true`;
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  started.push({ fake, client });
  const directory = mkdtempSync(join(tmpdir(), `change-stream-conformance-${test}-`));
  const database = client.db('shop');
  return {
    start: () =>
      startConformanceHost({
        directory,
        pump: 'change-stream',
        data: {
          CapturePump: { Enabled: false },
          ChangeStreamPump: {
            ConnectionString: url,
            PollIntervalMilliseconds: 3_600_000,
            BatchSize: 200,
            TimeoutMilliseconds: 3000,
            FailureBackoffMilliseconds: 0,
          },
        },
        capture: {
          provider: 'mongodb',
          mode: 'change-stream',
          metadata: { database: 'shop', collection: `orders_${test}` },
        },
      }),
    async insert(ids) {
      await database.collection(`orders_${test}`).insertMany(ids.map((id) => ({ n: id })));
    },
    writeConcurrently: () => Promise.reject(new Error('not applicable')),
    async stagedIds() {
      const staged = await database
        .collection('corekit_cdc_outbox')
        .find({ cdcCaptureId: 'orders' })
        .toArray();
      return staged.map((document) => (document.payload as { n: number }).n);
    },
    async losePosition() {
      collections.rollLog();
    },
    async drop() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describeCdcProviderConformance({
  provider: 'mongodb (change streams, wire fake)',
  createSource,
  notApplicable: {
    'concurrent-writers':
      'the wire fake has no multi-document transactions, so there is nothing to roll back or hold open',
    'quiet-source-retention': 'a change stream holds nothing on the server; the oplog is sized by the server',
    'snapshot-hand-off':
      'change streams have no snapshot: a new capture starts at the stream’s current position (stated in the README)',
  },
});
