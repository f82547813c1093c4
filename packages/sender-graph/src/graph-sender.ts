import {
  recipientMetadata,
  coreHeaders,
  deliveryContext,
  emailSendResult,
  endpointHost,
  renderInvitationMessage,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { GraphSenderOptions } from './graph-options';
import { createGraphTransport, type GraphMailClient } from '@corekit/email-graph';
import type { GraphTokenProvider } from './token-provider';

export type { GraphMailClient, GraphSendMailRequest } from '@corekit/email-graph';

/**
 * One sendMail call of an invitation through the Graph transport: `/users/{SenderUserId}/sendMail` or
 * `/me/sendMail`. A 202 is an accepted hand-off, not a delivery; Graph returns no message id, so the provider
 * message id stays empty unless a custom client supplies one. The context goes in `x-core-*` internet message
 * headers (Graph takes at most 5).
 */
export function createGraphSend(
  settings: GraphSenderOptions,
  client: GraphMailClient,
  tokens: GraphTokenProvider,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const transport = createGraphTransport(settings, client, tokens);
  return async (call) => {
    const context = deliveryContext(call, settings.SenderId);
    const message = renderInvitationMessage(settings, call);
    const headers = {
      ...settings.Headers,
      ...coreHeaders(context, { lower: true, only: ['messageId', 'tenantId', 'invitationId'] }),
    };
    const metadata: Record<string, string | number | boolean | null> = {
      graphEndpointHost: endpointHost(settings.BaseUrl),
      senderId: settings.SenderId,
      graphSenderUser: settings.SenderUserId ? 'users' : 'me',
      graphSaveToSentItems: settings.SaveToSentItems,
      ...recipientMetadata('graph', call),
      graphCategoryCount: settings.Categories.length,
      graphHeaderCount: Object.keys(headers).length,
      graphMessageId: context.messageId,
    };
    const outcome = await transport.send(
      {
        from: { address: '' },
        to: call.recipientAddress,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: context.messageId,
        headers,
      },
      call.signal,
    );
    return emailSendResult(outcome, metadata, context.messageId);
  };
}
