import { CoreError, registrationErrorCodes, type RegistrationClaim } from '@corekit/abstractions';

/**
 * The registrations one builder accepted: `add*` calls claim theirs (a repeat is refused with one error code
 * for every package), kits that skip a repeated entry mark theirs, and packs ask whether another is present.
 */
export class RegistrationClaims {
  private readonly keys = new Set<string>();

  /** Records the claim; throws ALREADY_REGISTERED, naming the entry and the package, when it was made before. */
  claim(claim: RegistrationClaim): void {
    const key = claim.key ?? claim.packageName;
    if (this.keys.has(key)) throw alreadyRegistered(claim, key);
    this.keys.add(key);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  mark(key: string): void {
    this.keys.add(key);
  }
}

function alreadyRegistered(claim: RegistrationClaim, key: string): CoreError {
  const { packageName, entry } = claim;
  return new CoreError(
    registrationErrorCodes.alreadyRegistered,
    `${entry} (${packageName}) was already called on this builder; call it once, with every option in that call.`,
    { packageName, entry, key },
  );
}
