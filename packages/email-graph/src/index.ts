export { createGraphTransport, classifyGraphError, graphSendMailBodyOf } from './graph-transport';
export type { GraphMailClient, GraphSendMailRequest, GraphTransportSettings } from './graph-transport';
export { graphSdkClient } from './graph-client';
export { authorityAliases, defaultGraphScope, resolveAuthorityHost } from './graph-authority';
export type { GraphTokenProvider } from './graph-authority';
export {
  ClientCredentialsTokenError,
  clientCredentialsTokenProvider,
  tokenEndpointOf,
} from './client-credentials-token-provider';
export type { ClientCredentialsGrant } from './client-credentials-token-provider';
