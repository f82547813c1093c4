import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineBuilder } from '@corekit/abstractions';
import {
  addTenantGovernanceDelivery,
  type InvitationSender,
  type TenantGovernanceDelivery,
} from '@corekit/tenant-governance';

/**
 * A sender for the sample host that delivers to a local folder: it writes the message (with its acceptance
 * code) to `<outbox>/<tenant>-<invitation>.txt`, the newest message replacing the older one, and answers
 * dispatched (the dispatcher logs the outcome with event 4532, never the address) with a provider message
 * id derived from the dispatch id. Real hosts register a sender package (HTTP webhook, SMTP, email
 * providers) instead.
 */
function logOutboxSender(outbox: string): InvitationSender {
  return {
    id: 'demo-log-outbox',
    supportedChannels: ['email'],
    async send(request) {
      if (!request.recipient)
        return { outcome: 'sender-failed', reason: 'recipient-missing', retryable: false };
      const { tenantId, invitationId, roles } = request.invitation;
      writeFileSync(
        path.join(outbox, `${tenantId}-${invitationId}.txt`),
        `You are invited to ${tenantId} as ${roles.join(', ')}.\nAcceptance code: ${request.acceptanceSecret}\n`,
        { mode: 0o600 },
      );
      return {
        outcome: 'dispatched',
        providerMessageId: `demo-${request.dispatchId}`,
        metadata: { demo: true },
      };
    },
  };
}

/**
 * The sample host's invitation delivery (after `addTenancyDemo`): the demo outbox sender (messages in
 * `<data>/invitation-outbox`), the retry
 * queue in `<data>/invitation-retry-queue.json` with a background pass every 60 seconds, and HTTP file
 * domain proofs (no DNS-over-HTTPS resolver is configured, so DNS TXT proofs are disabled). Everything runs
 * embedded; nothing leaves the machine.
 */
export function addGovernanceDeliveryDemo(
  builder: EngineBuilder,
  options: { readonly dataDirectory?: string } = {},
): TenantGovernanceDelivery {
  const directory = options.dataDirectory ?? path.join(os.tmpdir(), 'corekit-sample-host');
  mkdirSync(directory, { recursive: true });
  const delivery = addTenantGovernanceDelivery(builder, {
    EnableInvitationDeliveryRetryQueue: true,
    InvitationDeliveryRetryDelaySeconds: 30,
    InvitationDeliveryRetryQueueFilePath: path.join(directory, 'invitation-retry-queue.json'),
    EnableInvitationDeliveryRetryBackgroundScheduling: true,
    InvitationDeliveryRetryBackgroundIntervalSeconds: 60,
    InvitationDeliveryRetryBackgroundSource: 'sample-host',
  });
  const outbox = path.join(directory, 'invitation-outbox');
  mkdirSync(outbox, { recursive: true });
  delivery.senders.add(logOutboxSender(outbox));
  return delivery;
}
