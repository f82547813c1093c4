import { defineExtensionKey } from './pack/extension-key';
import type { BehaviorDefinition } from './behaviors';
import type { RestEndpointDescriptor } from './rest-endpoint-descriptors';

/**
 * How a REST route was authored, recorded on every candidate and published endpoint as `authoringStyle` and
 * `restPublicationActivationMode`. The order is the default precedence used by `publish-preferred-style`.
 */
export const restAuthoringStyles = [
  'explicit-module-dsl',
  'inline-helper',
  'generated-profile-shorthand',
  'profile-mapping',
] as const;
export type RestAuthoringStyle = (typeof restAuthoringStyles)[number];

export const restMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RestMethod = (typeof restMethods)[number];

/**
 * What happens when several candidates of one behavior would still publish after style filtering and host
 * suppressions: `publish-all` (default) publishes every one; `publish-preferred-style` keeps the candidates of
 * the best style present (the preferred style, then the allowed styles in order) and marks the others
 * superseded; `fail-build` makes `builder.build()` fail naming every candidate.
 */
export const multiplePublishedCandidatesAnswers = [
  'publish-all',
  'publish-preferred-style',
  'fail-build',
] as const;
export type MultiplePublishedCandidatesAnswer = (typeof multiplePublishedCandidatesAnswers)[number];

/** Behavior-level REST authoring policy, declared on the behavior (`restAuthoring`); never read from configuration. */
export interface RestAuthoringPolicyDeclaration {
  /** The style that wins under `publish-preferred-style`. Default none (the allowed styles' order decides). */
  readonly preferredStyle?: RestAuthoringStyle;
  /** Styles that may publish, in precedence order. Default: all four, in `restAuthoringStyles` order. */
  readonly allowedStyles?: readonly RestAuthoringStyle[];
  /** Styles that may never publish; wins over `allowedStyles`. Default none. */
  readonly disallowedStyles?: readonly RestAuthoringStyle[];
  /** Default `publish-all`. */
  readonly multiplePublishedCandidates?: MultiplePublishedCandidatesAnswer;
}

/** Metadata any single endpoint may carry. */
export interface RestEndpointOptions {
  /**
   * Endpoint name, unique within its route group and used as the OpenAPI operationId. Default: the behavior id
   * (`<resource>.<action>` for `restResource` and `restProfile`).
   */
  readonly name?: string;
  /** One line for the API reference. Default: the behavior's description, then its display name. */
  readonly summary?: string;
  /** OpenAPI tags, added to the route group's. */
  readonly tags?: readonly string[];
  /** Status of a successful answer with a body. Default 200 (201 for `restResource` create); an undefined answer is 204. */
  readonly successStatus?: number;
}

/** Publication metadata shared by route groups, shorthand profiles and inline routes. */
export interface RestPublicationOptions {
  /**
   * Host governance scopes (`public-api`). They are always visible in the catalogs and can be matched by host
   * rules. On an explicit route group, declaring one is how the group opts into host governance; a group with
   * none stays authoritative (host suppressions and overrides are skipped for it).
   */
  readonly scopes?: readonly string[];
  /** API major version (integer from 1); selects the `/openapi/v{major}.json` document. Default 1. */
  readonly version?: number;
  readonly tags?: readonly string[];
  /** OpenAPI document names (`/openapi/{documentName}/v{major}.json`). Default `["default"]`. */
  readonly documents?: readonly string[];
}

/** Options of an explicit route group. */
export interface RestRouteGroupOptions extends RestPublicationOptions {
  /** Unique within the module; default the prefix as a slug (`/api/orders` is `api-orders`). */
  readonly id?: string;
  /**
   * Set false to show the declared scopes without letting the host govern the group yet ("declared-only").
   * Default true when `scopes` is not empty.
   */
  readonly allowHostGovernance?: boolean;
}

/** One endpoint of an explicit route group: `endpoint('GET', '/:orderId', 'orders.get')`. */
export interface RestEndpointDeclaration extends RestEndpointOptions {
  readonly kind: 'endpoint';
  readonly method: RestMethod;
  /** Relative to the group prefix, express syntax (`/:orderId`); `''` or `/` is the prefix itself. */
  readonly path: string;
  /** The explicit target binding: the id of a behavior of the declaring module. */
  readonly behaviorId: string;
  /** How the author wrote it, as shown by the candidate catalog (`restResource("orders").get`). */
  readonly shape: string;
}

/** `routeGroup(prefix, options, endpoints)`: authoring style `explicit-module-dsl`. */
export interface RestRouteGroupDeclaration {
  readonly kind: 'route-group';
  readonly prefix: string;
  readonly options: RestRouteGroupOptions;
  readonly endpoints: readonly RestEndpointDeclaration[];
}

/** `restGet(path, behaviorId)` and friends: authoring style `inline-helper`. */
export interface RestInlineRouteDeclaration extends RestEndpointOptions, RestPublicationOptions {
  readonly kind: 'inline-route';
  readonly method: RestMethod;
  /** Absolute path (`/api/ping`). */
  readonly path: string;
  readonly behaviorId: string;
}

/** Shorthand profiles `restProfile` understands and the resource actions each one generates. */
export const restShorthandProfiles = {
  crud: ['list', 'get', 'create', 'update', 'remove'],
  'read-only': ['list', 'get'],
} as const;
export type RestShorthandProfile = keyof typeof restShorthandProfiles;

/** The resource actions of `restResource` and `restProfile`: method, whether the path names one item, default status. */
export const restResourceActions = {
  list: { method: 'GET', item: false, successStatus: 200 },
  get: { method: 'GET', item: true, successStatus: 200 },
  create: { method: 'POST', item: false, successStatus: 201 },
  update: { method: 'PUT', item: true, successStatus: 200 },
  remove: { method: 'DELETE', item: true, successStatus: 200 },
} as const satisfies Record<string, { method: RestMethod; item: boolean; successStatus: number }>;
export type RestResourceAction = keyof typeof restResourceActions;

/** Options of `restProfile`. */
export interface RestProfileShorthandOptions extends RestPublicationOptions {
  /** Collection path. Default `/<resource>`. */
  readonly prefix?: string;
  /** Behavior ids looked for are `<behaviorPrefix><action>`. Default `<resource>.`. */
  readonly behaviorPrefix?: string;
  /** Item path parameter. Default `id`. */
  readonly idParameter?: string;
}

/** `restProfile('crud', 'orders')`: authoring style `generated-profile-shorthand`. */
export interface RestProfileShorthandDeclaration {
  readonly kind: 'profile-shorthand';
  readonly profile: RestShorthandProfile;
  readonly resource: string;
  readonly options: RestProfileShorthandOptions;
}

/** Everything a module may list in `ModuleDefinition.rest`. */
export type RestDeclaration =
  RestRouteGroupDeclaration | RestInlineRouteDeclaration | RestProfileShorthandDeclaration;

type EndpointList = ReadonlyArray<RestEndpointDeclaration | readonly RestEndpointDeclaration[]>;

/**
 * An explicit route group: a prefix, optional host governance scopes, an API major version, tags and OpenAPI
 * document names, and its endpoints (`endpoint(...)`, `restResource(...)`).
 */
export function routeGroup(prefix: string, endpoints: EndpointList): RestRouteGroupDeclaration;
export function routeGroup(
  prefix: string,
  options: RestRouteGroupOptions,
  endpoints: EndpointList,
): RestRouteGroupDeclaration;
export function routeGroup(
  prefix: string,
  second: RestRouteGroupOptions | EndpointList,
  third?: EndpointList,
): RestRouteGroupDeclaration {
  const options = Array.isArray(second) ? {} : (second as RestRouteGroupOptions);
  const endpoints = (Array.isArray(second) ? second : (third ?? [])) as EndpointList;
  return { kind: 'route-group', prefix, options, endpoints: endpoints.flat() };
}

/** One endpoint of a route group, explicitly bound to a behavior of the module. */
export function endpoint(
  method: RestMethod,
  path: string,
  behaviorId: string,
  options: RestEndpointOptions = {},
): RestEndpointDeclaration {
  return {
    kind: 'endpoint',
    method,
    path,
    behaviorId,
    ...options,
    shape: `endpoint(${JSON.stringify(method)}, ${JSON.stringify(path)}, ${JSON.stringify(behaviorId)})`,
  };
}

/**
 * A CRUD resource inside a route group: `restResource('orders', { list, get, create, update, remove })` gives
 * `GET /orders`, `GET /orders/:id`, `POST /orders` (201), `PUT /orders/:id`, `DELETE /orders/:id`, each bound
 * to the named behavior; omit an action to leave it out.
 */
export function restResource(
  name: string,
  bindings: Partial<Record<RestResourceAction, string>>,
  options: { readonly path?: string; readonly idParameter?: string; readonly tags?: readonly string[] } = {},
): RestEndpointDeclaration[] {
  const collection = options.path ?? `/${name}`;
  const idParameter = options.idParameter ?? 'id';
  return (Object.keys(restResourceActions) as RestResourceAction[])
    .filter((action) => bindings[action] !== undefined)
    .map((action) => {
      const { method, item, successStatus } = restResourceActions[action];
      return {
        kind: 'endpoint',
        method,
        path: item ? `${collection}/:${idParameter}` : collection,
        behaviorId: bindings[action]!,
        name: `${name}.${action}`,
        successStatus,
        ...(options.tags ? { tags: options.tags } : {}),
        shape: `restResource(${JSON.stringify(name)}).${action}`,
      };
    });
}

/** Generated profile shorthand: the module asks for a profile and the engine generates the routes. */
export function restProfile(
  profile: RestShorthandProfile,
  resource: string,
  options: RestProfileShorthandOptions = {},
): RestProfileShorthandDeclaration {
  return { kind: 'profile-shorthand', profile, resource, options };
}

function inline(method: RestMethod) {
  return (
    path: string,
    behaviorId: string,
    options: RestEndpointOptions & RestPublicationOptions = {},
  ): RestInlineRouteDeclaration => ({
    kind: 'inline-route',
    method,
    path,
    behaviorId,
    ...options,
  });
}

/** Inline helpers: one route in one line, `restPost('/api/ping', 'ping')`. */
export const restGet = inline('GET');
export const restPost = inline('POST');
export const restPut = inline('PUT');
export const restPatch = inline('PATCH');
export const restDelete = inline('DELETE');

/** Typed key that hands hosts the published endpoints: `engine.resolve(restPublicationKey)`. */
export const restPublicationKey = defineExtensionKey<RestPublicationRuntime>(
  '@corekit/abstractions/rest-publication',
  'the published REST endpoints with the behaviors they serve',
);

/** A published endpoint with the behavior it serves. */
export interface PublishedRestEndpoint {
  /** The entry of `/engine/rest-endpoints`. */
  readonly descriptor: RestEndpointDescriptor;
  readonly behavior: BehaviorDefinition;
}

/** The value of the `corekit.rest-publication` extension. */
export interface RestPublicationRuntime {
  /** Exactly the entries of `/engine/rest-endpoints`, in catalog order; fixed once the engine is built. */
  endpoints(): readonly PublishedRestEndpoint[];
}
