/**
 * The version of the pack contract (`EngineBuilder` and the `pack/*` types) that this release of
 * `@corekit/abstractions` specifies. It changes only when the contract changes in a way a pack already built
 * could not survive (a member removed, renamed, or given another meaning); additions keep it. A change of it
 * is a major release of the fixed group (abstractions, engine-core, web-host, worker-host): see
 * docs/releasing.md.
 *
 * It is a type, not a runtime constant, on purpose: a pack imports `@corekit/abstractions` from whatever
 * version the application installed, so a constant read at run time would always match. The literal a pack
 * writes is compiled into the pack; this type makes the compiler refuse a stale literal when the pack is
 * rebuilt against a contract with another specification.
 */
export type PackSpecificationVersion = 1;

/**
 * What a pack declares when it registers (`builder.declarePack`): the npm package that implements the pack
 * contract and the specification version it was written against. Kits declare for the packages built on
 * them (probe-kit for every probe, sender-kit for every sender...).
 */
export interface PackDeclaration {
  /** The npm name of the package that implements the contract (`@corekit/eventing`, `@corekit/probe-kit`). */
  readonly packageName: string;
  /**
   * The pack contract specification the package was written against, as a literal (`specificationVersion:
   * 1`), never read from `@corekit/abstractions` at run time (see `PackSpecificationVersion`).
   */
  readonly specificationVersion: PackSpecificationVersion;
}

/** Stable error codes of pack declarations. */
export const packSpecificationErrorCodes = {
  /** The engine does not implement the specification version a pack declares; the message names both. */
  unsupported: 'PACK_SPECIFICATION_UNSUPPORTED',
} as const;
