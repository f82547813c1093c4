import {
  restEndpointAuthoringPolicySchema,
  restEndpointCandidateSchema,
  restEndpointOverrideSchema,
  restEndpointPublicationGroupSchema,
  restEndpointSchema,
  restEndpointSuppressionSchema,
  type CatalogDefinition,
  type CatalogNarrowing,
} from '@corekit/abstractions';
import type { ZodType } from 'zod';
import type { RestPublicationResult } from './rest-publication-pipeline';

type Entry = { readonly behaviorId?: string; readonly sourceModuleId?: string };

const byBehavior: CatalogNarrowing<Entry> = {
  segment: 'behaviors',
  parameter: 'behaviorId',
  description: 'the behavior id',
  select: (entry, value) => entry.behaviorId === value,
};
const byModule: CatalogNarrowing<Entry> = {
  segment: 'modules',
  parameter: 'sourceModuleId',
  description: 'the id of the module that owns the behavior',
  select: (entry, value) => entry.sourceModuleId === value,
};

/**
 * The six REST publication catalogs (spec 4.2). Their entries are computed when the engine is built from module
 * behaviors and `Engine:Rest`; contributing entries to them through `addCatalogEntries` fails the build, since
 * module code and host configuration are the only authoring inputs.
 */
export function restPublicationCatalogs(read: () => RestPublicationResult): CatalogDefinition<any>[] {
  const catalog = (
    id: string,
    displayName: string,
    snapshotField: string,
    idField: string,
    entrySchema: ZodType,
    entries: (result: RestPublicationResult) => readonly unknown[],
    description: string,
    narrowings: readonly CatalogNarrowing<any>[] = [],
  ): CatalogDefinition<any> => ({
    id,
    displayName,
    description,
    path: `/engine/${id}`,
    snapshotField,
    idField,
    entrySchema,
    narrowings,
    list: () => entries(read()),
    resolve: (contributed) =>
      contributed.length === 0
        ? []
        : [
            {
              catalog: id,
              entryId: '',
              field: '(entries)',
              value: contributed.length,
              message: `the ${id} catalog is computed from module behaviors (ModuleDefinition.rest) and Engine:Rest; it takes no contributed entries`,
            },
          ],
  });
  return [
    catalog(
      'rest-endpoints',
      'REST endpoints',
      'restEndpoints',
      'id',
      restEndpointSchema,
      (result) => result.endpoints,
      'Final published REST endpoints after shorthand authoring, authoring-policy filtering, suppression and override selection',
      [byBehavior, byModule],
    ),
    catalog(
      'rest-endpoint-candidates',
      'REST endpoint candidates',
      'restEndpointCandidates',
      'candidateId',
      restEndpointCandidateSchema,
      (result) => result.candidates,
      'Every route any authoring style proposed: source shape, authoring style, publication group, original metadata, matched rules, selected and applied governance results',
      [byBehavior, byModule],
    ),
    catalog(
      'rest-endpoint-publication-groups',
      'REST endpoint publication groups',
      'restEndpointPublicationGroups',
      'id',
      restEndpointPublicationGroupSchema,
      (result) => result.groups,
      'Per behavior and authoring style: styles that published, suppressed candidates, explicit groups that stayed authoritative, host rules skipped for groups that did not opt in',
      [byBehavior],
    ),
    catalog(
      'rest-endpoint-authoring-policies',
      'REST endpoint authoring policies',
      'restEndpointAuthoringPolicies',
      'behaviorId',
      restEndpointAuthoringPolicySchema,
      (result) => result.policies,
      'Behavior-level authoring-policy intent (preferred, allowed and disallowed styles, multiple-published-candidate answer); read-only, declared in module code',
    ),
    catalog(
      'rest-endpoint-suppressions',
      'REST endpoint suppressions',
      'restEndpointSuppressions',
      'id',
      restEndpointSuppressionSchema,
      (result) => result.suppressions,
      'Host suppression rules (Engine:Rest:Governance:Suppressions) with matched, suppressed and skipped outcomes and selection-basis summaries',
    ),
    catalog(
      'rest-endpoint-overrides',
      'REST endpoint overrides',
      'restEndpointOverrides',
      'id',
      restEndpointOverrideSchema,
      (result) => result.overrides,
      'Host override rules (Engine:Rest:Governance:Overrides) with matched, applied and skipped outcomes, selection bases and declared-versus-effective actions',
    ),
  ];
}
