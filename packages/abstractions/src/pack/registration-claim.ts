/**
 * What an `add*` call claims with `builder.claimRegistration`: the one registration a builder accepts for it. A
 * second claim of the same key on one builder is refused with `ALREADY_REGISTERED`, whose message names the
 * entry and the package, so every package refuses a second `add*` call the same way.
 */
export interface RegistrationClaim {
  /** The npm package the registration comes from (`@corekit/agents`); the error names it. */
  readonly packageName: string;
  /** The entry point the user called (`addAgents`); the error names it. */
  readonly entry: string;
  /**
   * What is registered once per builder. Default: the package name. A kit that registers several packages
   * passes each package's name; a package with two entries that may both be called passes one key per entry
   * (`@corekit/tenant-governance/delivery`). `builder.hasRegistration(key)` answers true after the claim.
   */
  readonly key?: string;
}

/** Stable error codes of registration claims. */
export const registrationErrorCodes = {
  /** A second `add*` call of one package (or one entry) on one builder; the message names both. */
  alreadyRegistered: 'ALREADY_REGISTERED',
} as const;
