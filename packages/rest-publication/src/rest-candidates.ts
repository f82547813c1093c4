import {
  restMethods,
  restResourceActions,
  restShorthandProfiles,
  type ModuleDefinition,
  type RestEndpointCandidateDescriptor,
  type RestEndpointMetadata,
  type RestEndpointOptions,
  type RestInlineRouteDeclaration,
  type RestProfileShorthandDeclaration,
  type RestPublicationOptions as RestPublicationMetadataOptions,
  type RestRouteGroupDeclaration,
} from '@corekit/abstractions';
import type { BehaviorRegistry } from './behavior-registry';
import type { RestPublicationOptions } from './rest-publication-options';
import { joinRoutePath, routePathProblems, slugOf } from './rest-route-paths';

/** A candidate as an authoring style proposed it, before policies and governance. */
export type RestCandidateDraft = Pick<
  RestEndpointCandidateDescriptor,
  | 'candidateId'
  | 'authoringStyle'
  | 'sourceShape'
  | 'source'
  | 'behaviorId'
  | 'sourceModuleId'
  | 'declaringModuleId'
  | 'routeGroupId'
  | 'routeGroupPrefix'
  | 'hostGovernanceScopes'
  | 'hostGovernance'
  | 'originalMetadata'
  | 'targetBindings'
>;

const documentNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const localIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Collects the candidates of all four authoring styles; every problem is a sentence naming its source. */
export function collectCandidates(
  modules: readonly ModuleDefinition[],
  behaviors: BehaviorRegistry,
  options: RestPublicationOptions,
): { candidates: RestCandidateDraft[]; problems: string[] } {
  const candidates: RestCandidateDraft[] = [];
  const problems: string[] = [];
  const summaryOf = (behaviorId: string, declared?: string) => {
    const behavior = behaviors.find(behaviorId)?.behavior;
    return declared ?? behavior?.description ?? behavior?.displayName ?? null;
  };

  /** Validates and records one candidate; `owner` is the module that must own the behavior (null: any module). */
  function add(
    draft: Omit<RestCandidateDraft, 'sourceModuleId' | 'originalMetadata'> & {
      metadata: Omit<RestEndpointMetadata, 'summary'> & { summary?: string };
    },
    owner: string | null,
  ): void {
    const { metadata, ...rest } = draft;
    const found = behaviors.find(draft.behaviorId);
    const where = draft.source;
    if (!found) {
      const known = owner === null ? '' : `; module "${owner}" defines ${ownBehaviors(behaviors, owner)}`;
      problems.push(`${where} targets behavior "${draft.behaviorId}", which no module defines${known}`);
      return;
    }
    if (owner !== null && found.moduleId !== owner) {
      problems.push(
        `${where} targets behavior "${draft.behaviorId}" of module "${found.moduleId}"; a module publishes only its own behaviors`,
      );
      return;
    }
    problems.push(...metadataProblems(metadata, where));
    candidates.push({
      ...rest,
      sourceModuleId: found.moduleId,
      originalMetadata: { ...metadata, summary: summaryOf(draft.behaviorId, metadata.summary) },
    });
  }

  for (const module of modules) {
    const declarations: unknown = module.rest;
    if (declarations === undefined) continue;
    if (!Array.isArray(declarations)) {
      problems.push(
        `module "${module.id}" rest must be an array of routeGroup(...), restProfile(...) or restGet/restPost/... declarations`,
      );
      continue;
    }
    declarations.forEach((declaration, index) => {
      const kind = (declaration as { kind?: unknown })?.kind;
      if (kind === 'route-group') explicitGroup(module.id, declaration as RestRouteGroupDeclaration);
      else if (kind === 'inline-route') inlineRoute(module.id, declaration as RestInlineRouteDeclaration);
      else if (kind === 'profile-shorthand')
        shorthand(module.id, declaration as RestProfileShorthandDeclaration);
      else
        problems.push(
          `module "${module.id}" rest[${index}] is not a routeGroup(...), restProfile(...) or inline helper declaration`,
        );
    });
  }
  for (const profile of options.profiles)
    if (profile.options.Enabled) profileMapping(profile.name, profile.options);
  return { candidates, problems };

  function explicitGroup(moduleId: string, group: RestRouteGroupDeclaration): void {
    const groupOptions = group.options ?? {};
    const localId = groupOptions.id ?? slugOf(group.prefix ?? '');
    const label = `module "${moduleId}" routeGroup(${JSON.stringify(group.prefix)})`;
    if (!localIdPattern.test(localId))
      problems.push(`${label} id ${JSON.stringify(localId)} must use letters, digits, . _ - only`);
    const scopes = [...(groupOptions.scopes ?? [])];
    const governance =
      scopes.length === 0
        ? 'not-opted-in'
        : groupOptions.allowHostGovernance === false
          ? 'declared-only'
          : 'host-governed';
    const routeGroupId = `${moduleId}:${localId}`;
    for (const endpoint of group.endpoints ?? []) {
      const name = endpoint.name ?? endpoint.behaviorId;
      add(
        {
          candidateId: `${routeGroupId}:${name}`,
          authoringStyle: 'explicit-module-dsl',
          sourceShape: endpoint.shape?.startsWith('restResource') ? 'rest-resource' : 'route-group-endpoint',
          source: `${label}.${endpoint.shape ?? `endpoint(${JSON.stringify(endpoint.method)}, ${JSON.stringify(endpoint.path)})`}`,
          behaviorId: endpoint.behaviorId,
          declaringModuleId: moduleId,
          routeGroupId,
          routeGroupPrefix: joinRoutePath(group.prefix ?? '', ''),
          hostGovernanceScopes: scopes,
          hostGovernance: governance,
          targetBindings: [{ kind: 'behavior', behaviorId: endpoint.behaviorId, moduleId }],
          metadata: metadataOf(
            endpoint,
            groupOptions,
            joinRoutePath(group.prefix ?? '', endpoint.path ?? ''),
            name,
            endpoint.tags,
          ),
        },
        moduleId,
      );
    }
  }

  function inlineRoute(moduleId: string, route: RestInlineRouteDeclaration): void {
    const name = route.name ?? route.behaviorId;
    const helper = `rest${route.method.charAt(0)}${route.method.slice(1).toLowerCase()}`;
    add(
      {
        candidateId: `${moduleId}:inline:${name}`,
        authoringStyle: 'inline-helper',
        sourceShape: 'inline-helper',
        source: `module "${moduleId}" ${helper}(${JSON.stringify(route.path)}, ${JSON.stringify(route.behaviorId)})`,
        behaviorId: route.behaviorId,
        declaringModuleId: moduleId,
        routeGroupId: `${moduleId}:inline`,
        routeGroupPrefix: null,
        hostGovernanceScopes: [...(route.scopes ?? [])],
        hostGovernance: 'host-governed',
        targetBindings: [{ kind: 'behavior', behaviorId: route.behaviorId, moduleId }],
        metadata: metadataOf(route, route, route.path, name, []),
      },
      moduleId,
    );
  }

  function shorthand(moduleId: string, declaration: RestProfileShorthandDeclaration): void {
    const label = `module "${moduleId}" restProfile(${JSON.stringify(declaration.profile)}, ${JSON.stringify(declaration.resource)})`;
    const actions = restShorthandProfiles[declaration.profile];
    if (!actions) {
      problems.push(`${label}: unknown profile; use ${Object.keys(restShorthandProfiles).join(', ')}`);
      return;
    }
    const shorthandOptions = declaration.options ?? {};
    const prefix = shorthandOptions.prefix ?? `/${declaration.resource}`;
    const behaviorPrefix = shorthandOptions.behaviorPrefix ?? `${declaration.resource}.`;
    const idParameter = shorthandOptions.idParameter ?? 'id';
    const routeGroupId = `${moduleId}:${declaration.profile}:${declaration.resource}`;
    const expected = actions.map((action) => `${behaviorPrefix}${action}`);
    const present = actions.filter(
      (action) => behaviors.find(`${behaviorPrefix}${action}`)?.moduleId === moduleId,
    );
    if (present.length === 0) {
      problems.push(
        `${label} generates routes for the behaviors ${expected.join(', ')}, but module "${moduleId}" defines none of them`,
      );
      return;
    }
    for (const action of present) {
      const { method, item, successStatus } = restResourceActions[action];
      const behaviorId = `${behaviorPrefix}${action}`;
      const name = `${declaration.resource}.${action}`;
      add(
        {
          candidateId: `${routeGroupId}:${name}`,
          authoringStyle: 'generated-profile-shorthand',
          sourceShape: 'profile-shorthand',
          source: `${label}.${action}`,
          behaviorId,
          declaringModuleId: moduleId,
          routeGroupId,
          routeGroupPrefix: joinRoutePath(prefix, ''),
          hostGovernanceScopes: [...(shorthandOptions.scopes ?? [])],
          hostGovernance: 'host-governed',
          targetBindings: [],
          metadata: metadataOf(
            { successStatus, method },
            shorthandOptions,
            joinRoutePath(prefix, item ? `:${idParameter}` : ''),
            name,
            [],
          ),
        },
        moduleId,
      );
    }
  }

  function profileMapping(
    name: string,
    profile: RestPublicationOptions['profiles'][number]['options'],
  ): void {
    const routeGroupId = `profile:${name}`;
    profile.Routes.forEach((route, index) => {
      const endpointName = route.Name ?? route.Behavior;
      const owner = behaviors.find(route.Behavior)?.moduleId ?? '';
      add(
        {
          candidateId: `${routeGroupId}:${endpointName}`,
          authoringStyle: 'profile-mapping',
          sourceShape: 'configuration-profile',
          source: `Engine:Rest:Profiles:${name}:Routes:${index}`,
          behaviorId: route.Behavior,
          declaringModuleId: null,
          routeGroupId,
          routeGroupPrefix: profile.Prefix ? joinRoutePath(profile.Prefix, '') : null,
          hostGovernanceScopes: [...profile.Scopes],
          hostGovernance: 'host-governed',
          targetBindings: [{ kind: 'behavior', behaviorId: route.Behavior, moduleId: owner }],
          metadata: {
            method: route.Method,
            path: joinRoutePath(profile.Prefix, route.Path),
            endpointName,
            tags: unique([...profile.Tags, ...route.Tags]),
            openApiDocumentNames: [...profile.Documents],
            apiMajorVersion: profile.Version,
            successStatus: route.SuccessStatus,
            ...(route.Summary ? { summary: route.Summary } : {}),
          },
        },
        null,
      );
    });
  }
}

function metadataOf(
  endpoint: RestEndpointOptions & { method: RestEndpointMetadata['method'] },
  publication: RestPublicationMetadataOptions,
  path: string,
  endpointName: string,
  endpointTags: readonly string[] | undefined,
): Omit<RestEndpointMetadata, 'summary'> & { summary?: string } {
  return {
    method: endpoint.method,
    path,
    endpointName,
    tags: unique([...(publication.tags ?? []), ...(endpointTags ?? [])]),
    openApiDocumentNames: [...(publication.documents ?? ['default'])],
    apiMajorVersion: publication.version ?? 1,
    successStatus: endpoint.successStatus ?? 200,
    ...(endpoint.summary ? { summary: endpoint.summary } : {}),
  };
}

function metadataProblems(metadata: Omit<RestEndpointMetadata, 'summary'>, where: string): string[] {
  const problems: string[] = [];
  if (!(restMethods as readonly string[]).includes(metadata.method))
    problems.push(
      `${where}: method ${JSON.stringify(metadata.method)} must be one of ${restMethods.join(', ')}`,
    );
  problems.push(...routePathProblems(metadata.path).map((problem) => `${where}: ${problem}`));
  if (!Number.isInteger(metadata.apiMajorVersion) || metadata.apiMajorVersion < 1) {
    problems.push(
      `${where}: version must be an integer API major version from 1, got ${JSON.stringify(metadata.apiMajorVersion)}`,
    );
  }
  if (
    !Number.isInteger(metadata.successStatus) ||
    metadata.successStatus < 200 ||
    metadata.successStatus > 299
  ) {
    problems.push(
      `${where}: successStatus must be a 2xx status, got ${JSON.stringify(metadata.successStatus)}`,
    );
  }
  for (const name of metadata.openApiDocumentNames) {
    if (!documentNamePattern.test(name))
      problems.push(
        `${where}: OpenAPI document name ${JSON.stringify(name)} must use letters, digits, . _ - only`,
      );
  }
  if (metadata.openApiDocumentNames.length === 0)
    problems.push(`${where}: documents must name at least one OpenAPI document`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(metadata.endpointName)) {
    problems.push(
      `${where}: endpoint name ${JSON.stringify(metadata.endpointName)} must use letters, digits, . _ - only`,
    );
  }
  return problems;
}

function ownBehaviors(behaviors: BehaviorRegistry, moduleId: string): string {
  const own = behaviors
    .behaviors()
    .filter((entry) => entry.moduleId === moduleId)
    .map((entry) => `"${entry.behavior.id}"`);
  return own.length > 0 ? own.join(', ') : 'no behaviors';
}

export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Candidate ids must be unique: two endpoints of one group need distinct names. */
export function duplicateCandidateProblems(candidates: readonly RestCandidateDraft[]): string[] {
  const seen = new Map<string, RestCandidateDraft>();
  const problems: string[] = [];
  for (const candidate of candidates) {
    const previous = seen.get(candidate.candidateId);
    if (previous) {
      problems.push(
        `${candidate.source} and ${previous.source} both publish endpoint name "${candidate.originalMetadata.endpointName}" in route group "${candidate.routeGroupId}"; give one of them a distinct name`,
      );
    }
    seen.set(candidate.candidateId, candidate);
  }
  return problems;
}
