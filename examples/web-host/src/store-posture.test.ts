import { randomUUID } from 'node:crypto';
import { createMemoryLogger } from '@corekit/engine-core';
import { pollUntil } from '@corekit/testing/poll-until';
import { dropStoreNamespace } from '@corekit/testing/replica-harness';
import { requireService } from '@corekit/testing/require-service';
import type { WebHost } from '@corekit/web-host';
import { createSampleHost } from './sample-host';
import { testDataDirectory } from './test-support/test-data-directory';

const dataDirectory = testDataDirectory();

// Every surface that says where a pack keeps state reports the store provider actually installed: Memory
// (configured), File (the sample installs it in code), PostgreSQL and Redis (addPostgresStores/addRedisStores,
// real servers at POSTGRES_URL and REDIS_URL). Each case uses its own table or key prefix.
const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const suffix = randomUUID().slice(0, 8);
const tableName = `posture_${suffix}`;
const keyPrefix = `corekit:posture:${suffix}:`;

let host: WebHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});
afterAll(async () => {
  // Best effort: the table and keys this file created.
  await dropStoreNamespace({ provider: 'postgresql', tableName });
  await dropStoreNamespace({ provider: 'redis', keyPrefix });
});

/** Turns on the parts whose posture is otherwise not reported (retry queue, agent idempotency). */
const reportEverything = {
  MultiTenancy: { Governance: { EnableInvitationDeliveryRetryQueue: true } },
  Agents: { EnableExecutionIdempotency: true },
};

type Surface = { id: string; metadata: Record<string, any> };

async function surfacesWith(stores: Record<string, unknown> | undefined): Promise<Surface[]> {
  const sample = await createSampleHost({
    port: 0,
    handleSignals: false,
    dataDirectory,
    environment: {},
    logger: createMemoryLogger(),
    configuration: { Engine: { ...reportEverything, ...(stores ? { Stores: stores } : {}) } },
  });
  host = sample.host;
  const { port } = await sample.host.listen();
  const read = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/engine/technology-surfaces`);
    expect(response.status).toBe(200);
    return (await response.json()) as Surface[];
  };
  // On a shared store the packs' copies connect to the store's change feed once the engine has started: the
  // posture is read once the agents' copy says its feed is connected (false until then, null when not shared).
  return pollUntil(read, (surfaces) => {
    const agents = surfaces.find((surface) => surface.id === 'agent-tool-execution')?.metadata;
    return agents?.sharedStateFeedConnected !== false;
  });
}

/** Every posture field, per surface, as [kind, durability, scope]. */
function postureOf(surfaces: Surface[]) {
  const metadata = (id: string) => surfaces.find((surface) => surface.id === id)!.metadata;
  const governance = (id: string) => {
    const fields = metadata(id);
    return [fields.storeKind, fields.storeDurability, fields.storeScope];
  };
  const invitations = metadata('tenant-invitations');
  const administration = metadata('tenant-administration');
  const replay = metadata('tenant-invitation-delivery-status-http-endpoints');
  const callback = (id: string) => {
    const fields = metadata(id);
    return {
      replay: fields.replayProtection.configured
        ? [fields.replayProtection.store, fields.replayProtection.durability, fields.replayProtection.scope]
        : null,
      idempotency: fields.eventIdIdempotency.configured
        ? [
            fields.eventIdIdempotency.store,
            fields.eventIdIdempotency.durability,
            fields.eventIdIdempotency.storeScope,
          ]
        : null,
      distributedReplay: fields.boundaries.distributedReplayProtection,
    };
  };
  const subscription = metadata('event-subscriptions/send-confirmation');
  const agents = metadata('agent-tool-execution');
  return {
    memberships: governance('tenant-memberships'),
    invitations: governance('tenant-invitations'),
    domains: governance('tenant-domain-ownership'),
    actions: governance('tenant-governance-actions'),
    administration: [
      administration.invitationStoreKind,
      administration.storeDurability,
      administration.storeScope,
    ],
    retryQueue: [
      invitations.retryQueueKind,
      invitations.retryQueueDurability,
      invitations.retryQueueScope,
      invitations.retryClaimMode,
    ],
    observations: [
      invitations.observationStoreKind,
      invitations.observationStoreDurability,
      invitations.observationStoreScope,
    ],
    governanceWebReplay: [
      replay.replayProtectionStoreKind,
      replay.replayProtectionDurability,
      replay.replayProtectionScope,
    ],
    sendGrid: callback('tenant-invitation-delivery-sendgrid-status-callbacks'),
    mailgun: callback('tenant-invitation-delivery-mailgun-status-callbacks'),
    ses: callback('tenant-invitation-delivery-amazon-ses-status-callbacks'),
    eventingIdempotency: [
      subscription.idempotencyStoreKind,
      subscription.idempotencyDurability,
      subscription.idempotencyScope,
    ],
    agentIdempotency: [agents.idempotencyStoreKind, agents.idempotencyDurability, agents.idempotencyScope],
    agentRuns: [
      agents.runStateStoreKind,
      agents.runStateDurability,
      agents.runStateScope,
      agents.runCatalogSource,
      agents.runOwnership,
    ],
  };
}

/** What every surface must say for a provider; `none` is the spec's idempotencyDurability for a store lost on restart. */
function expected(posture: [string, string, string], idempotencyDurability: string) {
  const [kind, , scope] = posture;
  const shared = scope === 'shared';
  const distributedReplay = shared ? 'core-managed-shared-store' : 'application-managed';
  const callback = { replay: posture, idempotency: posture, distributedReplay };
  return {
    memberships: posture,
    invitations: posture,
    domains: posture,
    actions: posture,
    administration: posture,
    // The sample keeps its retry queue in a file of its own (InvitationDeliveryRetryQueueFilePath) unless the
    // store provider is shared: then the queue is on it, its entries claimed with owner + lease.
    retryQueue: shared
      ? [...posture, 'owner-lease-compare-and-set']
      : ['local-file', 'durable-local', 'node-local', 'single-process-queue'],
    observations: posture,
    governanceWebReplay: posture,
    sendGrid: callback,
    mailgun: callback,
    // The sample's SES callback runs with SNS verification off, so it has no replay cache.
    ses: { replay: null, idempotency: posture, distributedReplay },
    eventingIdempotency: [kind, idempotencyDurability, scope],
    agentIdempotency: [kind, idempotencyDurability, scope],
    // Agent runs: on a shared store each replica follows the store's change feed and owns its runs under a lease.
    agentRuns: [
      ...posture,
      scope === 'shared' ? 'shared-store-change-feed' : 'store-write-through',
      scope === 'shared' ? 'replica-lease' : 'single-process',
    ],
  };
}

describe('the sample host reports the store provider installed on every posture surface', () => {
  it('Memory (Engine:Stores:Provider=Memory): process memory, process-local', async () => {
    const posture = postureOf(await surfacesWith({ Provider: 'Memory' }));
    expect(posture).toEqual(expected(['memory', 'process-memory', 'process-local'], 'none'));
  });

  it('File (installed in code by the sample, no configuration): durable, node-local', async () => {
    const posture = postureOf(await surfacesWith(undefined));
    expect(posture).toEqual(expected(['file', 'durable-local', 'node-local'], 'durable-local'));
  });

  it('PostgreSQL (addPostgresStores): durable, shared', async () => {
    if (!(await requireService('PostgreSQL', postgresUrl, 'POSTGRES_URL'))) return;
    const posture = postureOf(
      await surfacesWith({
        Provider: 'PostgreSql',
        PostgreSql: { ConnectionString: postgresUrl, TableName: tableName },
      }),
    );
    expect(posture).toEqual(expected(['postgresql', 'durable-shared', 'shared'], 'durable-shared'));
  });

  it('Redis (addRedisStores): durable, shared', async () => {
    if (!(await requireService('Redis', redisUrl.replace(/^redis:/, 'http:'), 'REDIS_URL'))) return;
    const posture = postureOf(
      await surfacesWith({ Provider: 'Redis', Redis: { Url: redisUrl, KeyPrefix: keyPrefix } }),
    );
    expect(posture).toEqual(expected(['redis', 'durable-shared', 'shared'], 'durable-shared'));
  });
});
