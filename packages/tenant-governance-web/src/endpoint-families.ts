import { CoreError } from '@corekit/abstractions';
import {
  governanceWebOptionsSchema,
  governanceWebSectionPath,
  type GovernanceWebOptionsInput,
} from './endpoint-options';

/**
 * The five endpoint families of spec 4, each mapped only by its own call. The part of a key's name that
 * places it in a family (`TenantAdministration` in `EnableTenantAdministrationCommandEndpoint`...).
 */
export const endpointFamilies = {
  command: { mapCall: 'mapTenantAdministrationCommandEndpoint', keyPart: 'TenantAdministration' },
  dispatch: {
    mapCall: 'mapTenantInvitationDeliveryDispatchEndpoint',
    keyPart: 'TenantInvitationDeliveryDispatch',
  },
  callback: {
    mapCall: 'mapTenantInvitationDeliveryStatusCallbackEndpoint',
    keyPart: 'TenantInvitationDeliveryStatusCallback',
  },
  observations: {
    mapCall: 'mapTenantInvitationDeliveryStatusObservationEndpoint',
    keyPart: 'TenantInvitationDeliveryStatusObservation',
  },
  proofFiles: { mapCall: 'mapTenantDomainHttpProofEndpoint', keyPart: 'TenantDomainHttpProof' },
} as const;

export type EndpointFamily = keyof typeof endpointFamilies;

export const endpointFamilyNames = Object.keys(endpointFamilies) as EndpointFamily[];

/** The family a section key belongs to (undefined for a key the section does not have). */
export function familyOfKey(key: string): EndpointFamily | undefined {
  const known = Object.keys(governanceWebOptionsSchema.shape).find(
    (name) => name.toLowerCase() === key.toLowerCase(),
  );
  if (!known) return undefined;
  return endpointFamilyNames.find((family) => known.includes(endpointFamilies[family].keyPart));
}

/** Options of one family: the keys whose name carries the family's part. */
export type FamilyOptions<Part extends string> = {
  [
    K in keyof GovernanceWebOptionsInput as K extends `${string}${Part}${string}` ? K : never
  ]?: GovernanceWebOptionsInput[K];
};

/**
 * Refuses code options of another family: a key passed to the wrong map call would otherwise bind nothing
 * the operator can see. The error names the key path and the call it belongs to. Keys the section does not
 * have are left to the binder (unknown key, closest known key).
 */
export function assertFamilyOptions(family: EndpointFamily, options: object | undefined): void {
  const problems: string[] = [];
  for (const key of Object.keys(options ?? {})) {
    const owner = familyOfKey(key);
    if (owner !== undefined && owner !== family) {
      problems.push(
        `${governanceWebSectionPath}:${key} configures ${endpointFamilies[owner].mapCall}, not ${endpointFamilies[family].mapCall}; pass it to that call`,
      );
    }
  }
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: governanceWebSectionPath,
      problems,
    });
  }
}

/** Splits options of every family into the code options of each family's call. */
export function splitFamilyOptions(
  options: GovernanceWebOptionsInput | undefined,
): Record<EndpointFamily, Record<string, unknown>> {
  const split = Object.fromEntries(endpointFamilyNames.map((family) => [family, {}])) as Record<
    EndpointFamily,
    Record<string, unknown>
  >;
  for (const [key, value] of Object.entries(options ?? {})) {
    // A key of no family goes to the first call, whose binder refuses it with the closest known key.
    split[familyOfKey(key) ?? 'command'][key] = value;
  }
  return split;
}
