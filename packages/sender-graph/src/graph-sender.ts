import {
  recipientMetadata,
  coreHeaders,
  deliveryContext,
  endpointHost,
  failureOf,
  renderInvitationMessage,
  senderOutcome,
  statusOutcome,
  type SenderCall,
} from '@corekit/sender-kit';
import type { InvitationSendResult } from '@corekit/tenant-governance';
import type { GraphSenderOptions } from './graph-options';
import type { GraphTokenProvider } from './token-provider';

/** One sendMail request: the path under the version, the JSON body, the bearer token. */
export interface GraphSendMailRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly token: string;
  readonly clientRequestId: string;
  readonly signal: AbortSignal;
}

/** The replaceable Graph client: answers the status and request ids (and a message id if it has one). */
export interface GraphMailClient {
  sendMail(request: GraphSendMailRequest): Promise<{
    status: number;
    requestId: string | null;
    providerMessageId?: string | null;
  }>;
}

/**
 * One sendMail call: `/users/{SenderUserId}/sendMail` or `/me/sendMail`. A 202 is an accepted hand-off,
 * not a delivery; Graph returns no message id, so the provider message id stays empty unless a custom
 * client supplies one. The context goes in `x-core-*` internet message headers (Graph takes at most 5).
 */
export function createGraphSend(
  settings: GraphSenderOptions,
  client: GraphMailClient,
  tokens: GraphTokenProvider,
): (call: SenderCall) => Promise<InvitationSendResult> {
  const path = settings.SenderUserId
    ? `/users/${encodeURIComponent(settings.SenderUserId)}/sendMail`
    : '/me/sendMail';
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
    let token: string;
    try {
      token = await tokens.getToken(call.signal);
    } catch {
      return senderOutcome.failed('token-unavailable', metadata);
    }
    try {
      const response = await client.sendMail({
        path,
        token,
        clientRequestId: context.messageId,
        signal: call.signal,
        body: {
          message: {
            subject: message.subject,
            body: message.html
              ? { contentType: 'HTML', content: message.html }
              : { contentType: 'Text', content: message.text },
            toRecipients: [{ emailAddress: { address: call.recipientAddress } }],
            internetMessageHeaders: Object.entries(headers).map(([name, value]) => ({ name, value })),
            ...(settings.Categories.length > 0 ? { categories: [...settings.Categories] } : {}),
          },
          saveToSentItems: settings.SaveToSentItems,
        },
      });
      metadata.graphStatus = response.status;
      metadata.graphRequestId = response.requestId?.slice(0, 100) ?? null;
      const accepted = settings.AcceptedStatusCodes.includes(response.status);
      return statusOutcome(
        response.status,
        accepted,
        response.providerMessageId ?? null,
        metadata,
        context.messageId,
      );
    } catch (error) {
      return failureOf(error, call.signal, metadata, 'graphStatus');
    }
  };
}
