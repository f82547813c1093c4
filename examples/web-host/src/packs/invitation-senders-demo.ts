import type { EngineBuilder } from '@corekit/abstractions';
import { addMicrosoftGraphInvitationDelivery } from '@corekit/sender-graph';
import { addHttpInvitationDelivery } from '@corekit/sender-http';
import { addMailgunInvitationDelivery } from '@corekit/sender-mailgun';
import { addSendGridInvitationDelivery } from '@corekit/sender-sendgrid';
import { addAmazonSesInvitationDelivery } from '@corekit/sender-ses';
import { addSmtpInvitationDelivery } from '@corekit/sender-smtp';

const section = 'Engine:MultiTenancy:Governance';

/** Each sender package with the section that switches it on in the sample host. */
const senders: ReadonlyArray<readonly [string, (builder: EngineBuilder) => unknown]> = [
  ['HttpInvitationDelivery', (builder) => addHttpInvitationDelivery(builder)],
  ['SmtpInvitationDelivery', (builder) => addSmtpInvitationDelivery(builder)],
  ['SendGridInvitationDelivery', (builder) => addSendGridInvitationDelivery(builder)],
  ['MailgunInvitationDelivery', (builder) => addMailgunInvitationDelivery(builder)],
  ['AmazonSesInvitationDelivery', (builder) => addAmazonSesInvitationDelivery(builder)],
  ['MicrosoftGraphInvitationDelivery', (builder) => addMicrosoftGraphInvitationDelivery(builder)],
];

/**
 * The real invitation senders of the sample host (after `addGovernanceDeliveryDemo`): a sender is
 * registered only when its section is configured (engine.json or `Engine__MultiTenancy__Governance__...`
 * environment variables), so the host starts without any provider and keeps the demo log-outbox sender.
 * Answers the section names registered.
 */
export function addInvitationSendersDemo(builder: EngineBuilder): string[] {
  const registered: string[] = [];
  for (const [name, register] of senders) {
    if (builder.configuration.getSection(`${section}:${name}`) === undefined) continue;
    register(builder);
    registered.push(name);
  }
  return registered;
}
