export { createWebHost } from './create-web-host';
export type { WebHost } from './create-web-host';
export {
  webHostConfigurationSchema,
  showDetailsSchema,
  engineRoutesExposureSchema,
} from './web-host-options';
export type { EngineRoutesExposure } from './web-host-options';
export { listenErrorCodes } from './listen-error';
export type {
  AuthorizeRequest,
  AuthorizationRequirement,
  ShowDetails,
  WebHostConfiguration,
  WebHostOptions,
} from './web-host-options';
export type { HostRoute, HttpMethod, RouteResponse } from './host-route';
export {
  HttpProblem,
  createProblem,
  problemContentType,
  problemType,
  webHostProblemCodes,
} from './problem-details';
export type { OpenApiDocument, OpenApiSelection } from './openapi-document';
export { adapterTransports, builtInTransports } from './transports';
export type { TransportName } from './transports';
export type { UpgradeHandler } from './websocket-events';
export { webHostEventIds, webHostEventIdRange } from './web-host-event-ids';
export { healthRoutePaths } from './engine-routes';
export { mountBehaviorStreams, behaviorStreamEventIds } from './behavior-streams';
export type { BehaviorStreamOptions } from './behavior-streams';
