import {
  recipientMetadata,
  contextFields,
  deliveryContext,
  emailSendResult,
  renderInvitationMessage,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { SesSenderOptions } from './ses-options';
import { sesTagName, sesTagValue } from '@corekit/email-ses';
import { createSesTransport, type SesClient } from '@corekit/email-ses';

export type { SesClient, SesSendEmailInput } from '@corekit/email-ses';

/**
 * One SendEmail call of an invitation through the SES transport. The delivery context goes in email tags
 * (published with a configuration set), each sanitized to SES's alphabet. A 200 with a MessageId is an accepted
 * hand-off; a 200 without one is sender-failed `ses-message-id-missing`.
 */
export function createSesSend(
  settings: SesSenderOptions,
  client: SesClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const transport = createSesTransport(settings, client);
  return async (call) => {
    const context = deliveryContext(call, settings.SenderId);
    const message = renderInvitationMessage(settings, call);
    const tags = new Map<string, string>();
    for (const [name, value] of Object.entries(settings.Tags)) tags.set(sesTagName(name), sesTagValue(value));
    // The context tags (contract names, `tag` encoding) win over configured tags of the same name.
    for (const [name, value] of Object.entries(contextFields(context, 'tag'))) tags.set(name, value);
    const metadata = {
      sesRegion: settings.RegionSystemName,
      sesConfigurationSet: settings.ConfigurationSetName ?? null,
      sesMessageId: context.messageId,
      senderId: settings.SenderId,
      ...recipientMetadata('ses', call),
      sesReplyToCount: 0,
      sesTagCount: tags.size,
    };
    const outcome = await transport.send(
      {
        from: { address: settings.FromAddress, name: settings.FromName },
        to: call.recipientAddress,
        subject: message.subject,
        text: message.text,
        html: message.html,
        variables: Object.fromEntries(tags),
      },
      call.signal,
    );
    return emailSendResult(outcome, metadata, context.messageId);
  };
}
