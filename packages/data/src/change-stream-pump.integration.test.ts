import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { captureTelemetry } from '@corekit/testing/capture-telemetry';
import { createMongoDbFakeCollections } from '@corekit/testing/fakes/mongodb/mongodb-change-streams';
import {
  startMongoDbFakeServer,
  type MongoDbFakeServer,
} from '@corekit/testing/fakes/mongodb/mongodb-fake-server';
import { expectDatabaseClientTelemetry } from '@corekit/testing/semantic-convention-expectations';
import { MongoClient } from 'mongodb';
import {
  capture,
  closeHosts,
  declareCaptures,
  passNow,
  serveChangeStream,
  serveData,
  type ServedData,
} from './test-support/data-fixture';

// The MongoDB wire fake with change streams, through the real `mongodb` driver; MONGODB_URL points the same
// tests at a real replica set instead.
const realUrl = process.env.MONGODB_URL;
/** Cases that need the fake's control over the server's log (a real replica set keeps tokens valid). */
const fakeOnly = realUrl ? it.skip : it;

let fake: MongoDbFakeServer | null = null;
let url: string;
let client: MongoClient;

async function startServer() {
  if (realUrl) return realUrl;
  fake = await startMongoDbFakeServer({ commands: createMongoDbFakeCollections().commands });
  return `${fake.url}/?directConnection=true`;
}

beforeEach(async () => {
  url = await startServer();
  client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
});
afterEach(async () => {
  await closeHosts();
  await client.close();
  await fake?.close();
  fake = null;
});

const pass = (served: ServedData) => passNow(served, { job: 'changeStreamJob', failedThrows: true });
const serve = (database: string, directory: string) =>
  serveChangeStream({ url, database, directory, pump: { BatchSize: 2 } });

describe('the document-database change-stream pump', () => {
  it('stages change events into the outbox, keeps the resume token as checkpoint, and resumes from it after a restart', async () => {
    const database = `cdc_${randomBytes(4).toString('hex')}`;
    const directory = mkdtempSync(join(tmpdir(), 'data-change-stream-'));
    const stock = client.db(database).collection('stock');
    const outbox = client.db(database).collection('corekit_cdc_outbox');

    const first = await serve(database, directory);
    await pass(first);
    const opened = (await first.request('/engine/cdc-captures/runtime/stock')).body;
    expect(opened).toMatchObject({
      lastOutcome: 'idle',
      checkpoint: expect.any(String),
      executionBinding: {
        effectiveExecutionRuntimeId: 'data-cdc-change-stream-pump',
        executionTopology: 'provider-native',
        selectionReason: 'provider-default-runtime',
      },
    });

    await stock.insertMany([{ sku: 'a' }, { sku: 'b' }, { sku: 'c' }]);
    const staged = await pass(first);
    expect(staged.captures[0]).toMatchObject({
      outcome: 'captured',
      capturedChangeCount: 3,
      producedMessageCount: 3,
    });
    const state = (await first.request('/engine/cdc-captures/runtime/stock')).body;
    expect(state).toMatchObject({
      totalCapturedChangeCount: 3,
      acknowledgement: { state: 'acknowledged', pendingCheckpoint: null },
      acknowledgerServiceType: 'document-database-resume-token',
    });
    expect(state.acknowledgement.durableCheckpoint).toBe(state.checkpoint);
    expect(JSON.parse(state.checkpoint)._data).toBe(state.changeId);
    const graph = (await first.request('/engine/execution-graphs/data-cdc-change-stream-flow')).body;
    expect(graph.nodes.map((node: { id: string }) => node.id)).toContain('acknowledge-cdc-progress');
    const runtime = (await first.request('/engine/cdc-capture-runtimes/data-cdc-change-stream-pump')).body;
    expect(runtime).toMatchObject({
      executionOwnership: 'host-managed',
      acknowledgementMode: 'provider-native',
      cdcCaptureIds: ['stock'],
    });
    await closeHosts();

    await stock.insertMany([{ sku: 'd' }, { sku: 'e' }]);
    const second = await serve(database, directory);
    const resumed = await pass(second);
    expect(resumed.captures[0]).toMatchObject({ capturedChangeCount: 2, producedMessageCount: 2 });
    const documents = await outbox.find({ cdcCaptureId: 'stock' }).toArray();
    expect(documents.map((document) => (document.payload as { sku: string }).sku).sort()).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect((await second.request('/engine/cdc-captures/runtime/stock')).body.totalCapturedChangeCount).toBe(
      5,
    );
    if (fake) {
      const resumedAggregates = fake.commands.filter(
        (command) =>
          command.commandName === 'aggregate' && JSON.stringify(command.command).includes('resumeAfter'),
      );
      expect(resumedAggregates.length).toBeGreaterThan(0);
    }
  });

  fakeOnly(
    'reports a resume token the server no longer knows as a source failure (a fake restarted with an empty log)',
    async () => {
      if (!fake) throw new Error('the fake server is not running');
      const database = 'cdc_lost';
      const directory = mkdtempSync(join(tmpdir(), 'data-change-stream-lost-'));
      const first = await serve(database, directory);
      await client
        .db(database)
        .collection('stock')
        .insertMany([{ sku: 'a' }, { sku: 'b' }]);
      await pass(first);
      await client
        .db(database)
        .collection('stock')
        .insertMany([{ sku: 'c' }]);
      await pass(first);
      await closeHosts();
      await client.close();
      await fake.close();
      url = await startServer();
      client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
      await client.connect();
      const second = await serve(database, directory);
      await pass(second);
      expect((await second.request('/engine/cdc-captures/runtime/stock')).body).toMatchObject({
        lastOutcome: 'failed',
        failureKind: 'source',
        error: expect.stringContaining('260'),
      });
    },
  );

  it('measures and traces the change-stream read and the outbox write per the database-client conventions', async () => {
    const telemetry = captureTelemetry();
    try {
      const database = `cdc_${randomBytes(4).toString('hex')}`;
      const served = await serve(database, mkdtempSync(join(tmpdir(), 'data-change-stream-')));
      await pass(served);
      await client
        .db(database)
        .collection('stock')
        .insertMany([{ sku: 'x' }, { sku: 'y' }]);
      expect((await pass(served)).captures[0]).toMatchObject({ producedMessageCount: 2 });
      await expectDatabaseClientTelemetry(telemetry, {
        system: 'mongodb',
        operations: ['aggregate'],
        collection: 'stock',
      });
      await expectDatabaseClientTelemetry(telemetry, {
        system: 'mongodb',
        operations: ['insert'],
        collection: 'corekit_cdc_outbox',
      });
      // The database is the capture's, per operation; the connection string's credentials never appear.
      const reads = telemetry.spans().filter((span) => span.name === 'aggregate stock');
      expect(reads[0]?.attributes).toMatchObject({ 'db.namespace': database, 'db.system.name': 'mongodb' });
      expect(JSON.stringify(telemetry.spans().map((span) => span.attributes))).not.toContain('mongodb://');
    } finally {
      await telemetry.stop();
    }
  });

  it('without a connection string the capture fails truthfully', async () => {
    const served = await serveData(
      { CapturePump: { Enabled: false }, ChangeStreamPump: { PollIntervalMilliseconds: 3_600_000 } },
      (builder) => declareCaptures(builder, [capture('stock', { provider: 'mongodb' })]),
    );
    await pass(served);
    expect((await served.request('/engine/cdc-captures/runtime/stock')).body).toMatchObject({
      lastOutcome: 'failed',
      failureKind: 'provider',
    });
  });
});
