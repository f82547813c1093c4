import {
  recipientMetadata,
  contextFields,
  deliveryContext,
  failureOf,
  renderInvitationMessage,
  senderOutcome,
  statusOutcome,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { SesSenderOptions } from './ses-options';
import { sesTagName, sesTagValue } from './ses-tags';

/** The SES v2 SendEmail input (the SDK's `SendEmailCommandInput` shape, the fields used here). */
export interface SesSendEmailInput {
  readonly FromEmailAddress: string;
  readonly Destination: { ToAddresses: string[] };
  readonly Content: {
    Simple: { Subject: { Data: string }; Body: { Text: { Data: string }; Html?: { Data: string } } };
  };
  readonly EmailTags: Array<{ Name: string; Value: string }>;
  readonly ConfigurationSetName?: string;
}

/** The replaceable client seam: one SES v2 SendEmail call answering the message id and HTTP status. */
export interface SesClient {
  sendEmail(
    input: SesSendEmailInput,
    signal: AbortSignal,
  ): Promise<{ MessageId?: string; $metadata: { httpStatusCode?: number } }>;
}

/**
 * One SendEmail call. The delivery context goes in email tags (published with a configuration set), each
 * sanitized to SES's alphabet. A 200 with a MessageId is an accepted hand-off; a 200 without one is
 * sender-failed `ses-message-id-missing`.
 */
export function createSesSend(
  settings: SesSenderOptions,
  client: SesClient,
): (call: SenderCall) => Promise<InvitationSendResult> {
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
    try {
      const response = await client.sendEmail(
        {
          FromEmailAddress: settings.FromName
            ? `"${settings.FromName}" <${settings.FromAddress}>`
            : settings.FromAddress,
          Destination: { ToAddresses: [call.recipientAddress] },
          Content: {
            Simple: {
              Subject: { Data: message.subject },
              Body: {
                Text: { Data: message.text },
                ...(message.html ? { Html: { Data: message.html } } : {}),
              },
            },
          },
          EmailTags: [...tags].map(([Name, Value]) => ({ Name, Value })),
          ...(settings.ConfigurationSetName ? { ConfigurationSetName: settings.ConfigurationSetName } : {}),
        },
        call.signal,
      );
      const status = response.$metadata.httpStatusCode ?? 200;
      const recorded = { ...metadata, sesStatus: status };
      const accepted = settings.AcceptedStatusCodes.includes(status);
      if (accepted && !response.MessageId) return senderOutcome.failed('ses-message-id-missing', recorded);
      return statusOutcome(
        status,
        accepted,
        response.MessageId?.slice(0, 200) ?? null,
        recorded,
        context.messageId,
      );
    } catch (error) {
      return failureOf(error, call.signal, metadata, 'sesStatus');
    }
  };
}
