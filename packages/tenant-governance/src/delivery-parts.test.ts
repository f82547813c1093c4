import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDelivery } from './delivery-test-support';

type Run = Awaited<ReturnType<typeof startDelivery>>;
let current: Run | undefined;
afterEach(async () => {
  await current?.engine.stop();
  current = undefined;
});

const jobIds = (run: Run) =>
  run.engine
    .jobs()
    .map((job) => job.id)
    .filter((id) => id.startsWith('tenant-governance.') && id !== 'tenant-governance.invitation-expiry');

describe('delivery parts', () => {
  it('adds the retry job only with the queue enabled, on an interval only with background scheduling', async () => {
    current = await startDelivery();
    expect(jobIds(current)).toEqual([]);
    await current.engine.stop();
    current = await startDelivery({ EnableInvitationDeliveryRetryQueue: true });
    const [onDemand] = current.engine.jobs().filter((job) => job.id.endsWith('invitation-delivery-retry'));
    expect(onDemand).toMatchObject({ owner: '@corekit/tenant-governance/delivery', intervalMs: null });
    await current.engine.stop();
    current = await startDelivery({
      EnableInvitationDeliveryRetryQueue: true,
      EnableInvitationDeliveryRetryBackgroundScheduling: true,
      InvitationDeliveryRetryBackgroundIntervalSeconds: 45,
      DomainVerification: { EnableBackgroundPolling: true, BackgroundPollingIntervalSeconds: 600 },
    });
    expect(Object.fromEntries(current.engine.jobs().map((job) => [job.id, job.intervalMs]))).toMatchObject({
      'tenant-governance.invitation-delivery-retry': 45_000,
      'tenant-governance.domain-proof-polling': 600_000,
    });
  });

  it('keeps the reconciled statuses in a -statuses.json file beside a configured observation file', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'delivery-parts-'));
    current = await startDelivery({
      InvitationDeliveryObservationStoreFilePath: path.join(folder, 'observations.json'),
    });
    const invitation = await current.invite();
    await current.status.submit([
      {
        providerKey: 'sendgrid',
        providerEventId: 'e-1',
        tenantId: 'acme',
        invitationId: invitation.invitationId,
        status: 'delivered',
      },
    ]);
    expect(readdirSync(folder).sort()).toEqual(['observations-statuses.json', 'observations.json']);
    expect(
      current.engine.technologySurfaces().find((item) => item.id === 'tenant-invitations')!.metadata,
    ).toMatchObject({
      observationStoreKind: 'local-file',
      observationStoreFilePathUsed: true,
      observationCount: 1,
    });
  });
});
