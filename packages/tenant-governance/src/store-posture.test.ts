import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoreProvider, TechnologySurface } from '@corekit/abstractions';
import { FileStoreProvider } from '@corekit/engine-core';
import { startDelivery } from './delivery-test-support';

const withQueue = { EnableInvitationDeliveryRetryQueue: true };

function metadataOf(surfaces: readonly TechnologySurface[], id: string): Record<string, unknown> {
  return surfaces.find((surface) => surface.id === id)!.metadata;
}

/** Every governance field that reports where records live, from one engine's surfaces. */
function postureOf(surfaces: readonly TechnologySurface[]) {
  const store = (id: string) => {
    const metadata = metadataOf(surfaces, id);
    return [
      metadata.storeKind,
      metadata.storeDurability,
      metadata.storeScope,
      metadata.durableStoreOwnership,
    ];
  };
  const invitations = metadataOf(surfaces, 'tenant-invitations');
  const administration = metadataOf(surfaces, 'tenant-administration');
  return {
    memberships: store('tenant-memberships'),
    invitations: store('tenant-invitations'),
    domains: store('tenant-domain-ownership'),
    actions: store('tenant-governance-actions'),
    administration: [
      administration.membershipStoreKind,
      administration.invitationStoreKind,
      administration.storeDurability,
      administration.storeScope,
    ],
    retryQueue: [invitations.retryQueueKind, invitations.retryQueueDurability, invitations.retryQueueScope],
    observations: [
      invitations.observationStoreKind,
      invitations.observationStoreDurability,
      invitations.observationStoreScope,
    ],
    summaries: [invitations.summarySource, administration.summarySource, invitations.retryClaimMode],
  };
}

async function surfacesWith(storeProvider?: StoreProvider) {
  const run = await startDelivery(withQueue, { ...(storeProvider ? { storeProvider } : {}) });
  try {
    return run.engine.technologySurfaces();
  } finally {
    await run.engine.stop();
  }
}

function expected(kind: string, durability: string, scope: string, owner: string) {
  const store = [kind, durability, scope, owner];
  return {
    memberships: store,
    invitations: store,
    domains: store,
    actions: store,
    administration: [kind, kind, durability, scope],
    retryQueue: [kind, durability, scope],
    observations: [kind, durability, scope],
    // One process owns a Memory or File store: summaries follow its writes, queue entries are not claimed.
    summaries: ['store-on-write', 'store-on-write', 'single-process-queue'],
  };
}

describe('governance posture follows the installed store provider', () => {
  it('the default Memory provider is reported as process memory, process-local', async () => {
    expect(postureOf(await surfacesWith())).toEqual(
      expected('memory', 'process-memory', 'process-local', 'not-configured'),
    );
  });

  it('a File provider installed in code after every add* call is reported as file, durable, node-local', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'governance-posture-'));
    expect(postureOf(await surfacesWith(new FileStoreProvider({ directory })))).toEqual(
      expected('file', 'durable-local', 'node-local', 'installed-store-provider'),
    );
  });

  it('a store with its own file path is reported as a local file whatever the engine provider', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'governance-posture-'));
    const run = await startDelivery({
      ...withQueue,
      InvitationDeliveryRetryQueueFilePath: path.join(directory, 'queue.json'),
      InvitationDeliveryObservationStoreFilePath: path.join(directory, 'observations.json'),
    });
    try {
      const posture = postureOf(run.engine.technologySurfaces());
      expect(posture.retryQueue).toEqual(['local-file', 'durable-local', 'node-local']);
      expect(posture.observations).toEqual(['local-file', 'durable-local', 'node-local']);
      expect(posture.memberships).toEqual(['memory', 'process-memory', 'process-local', 'not-configured']);
    } finally {
      await run.engine.stop();
    }
  });
});
