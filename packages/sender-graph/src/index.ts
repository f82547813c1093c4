export { addMicrosoftGraphInvitationDelivery, graphSenderEventIds } from './add-graph-invitation-delivery';
export type { GraphInvitationDeliveryExtensions } from './add-graph-invitation-delivery';
export { graphSenderOptionsSchema, azureIdentityOptionsSchema, authorityAliases } from './graph-options';
export type { GraphSenderOptions, GraphSenderOptionsInput, AzureIdentityOptions } from './graph-options';
export { createGraphSend } from './graph-sender';
export type { GraphMailClient, GraphSendMailRequest } from './graph-sender';
export { createGraphTransport, classifyGraphError, graphSendMailBodyOf } from '@corekit/email-graph';
export type { GraphTransportSettings } from '@corekit/email-graph';
export { graphSdkClient } from '@corekit/email-graph';
export {
  credentialTokenProvider,
  defaultGraphScope,
  graphTokenEventIds,
  identityCredential,
  resolveAuthorityHost,
} from './token-provider';
export type { GraphTokenProvider } from './token-provider';
export {
  ClientCredentialsTokenError,
  clientCredentialsTokenProvider,
  tokenEndpointOf,
} from '@corekit/email-graph';
export type { ClientCredentialsGrant } from '@corekit/email-graph';
