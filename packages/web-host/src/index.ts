export { createWebHost } from './create-web-host';
export type { WebHost } from './create-web-host';
export { webHostConfigurationSchema, showDetailsSchema } from './web-host-options';
export type { AuthorizeRequest, ShowDetails, WebHostConfiguration, WebHostOptions } from './web-host-options';
export type { HostRoute, HttpMethod, RouteResponse } from './host-route';
export {
  HttpProblem,
  createProblem,
  problemContentType,
  problemType,
  webHostProblemCodes,
} from './problem-details';
export type { OpenApiDocument, OpenApiSelection } from './openapi-document';
export { behaviorErrorStatus } from './rest-endpoint-routes';
export { adapterTransports, builtInTransports, transportExtensionKey } from './transports';
export type { TransportName, WebTransportAdapter } from './transports';
export type { UpgradeHandler } from './websocket-events';
export { webHostEventIds } from './web-host-event-ids';
export { healthRoutePaths } from './engine-routes';
