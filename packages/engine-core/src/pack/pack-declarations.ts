import {
  CoreError,
  packSpecificationErrorCodes,
  type PackDeclaration,
  type PackSpecificationVersion,
} from '@corekit/abstractions';

/**
 * The pack contract specifications this engine implements. Today only the current one; when a specification
 * changes, the engine may keep the previous one here for the window docs/releasing.md promises.
 */
export const supportedPackSpecificationVersions: readonly PackSpecificationVersion[] = [1];

/** The packs that declared themselves on one builder, each checked against the engine at declaration. */
export class PackDeclarations {
  private readonly declared = new Map<string, PackDeclaration>();

  constructor(
    private readonly engineVersion: string,
    private readonly supported: readonly number[] = supportedPackSpecificationVersions,
  ) {}

  /** Records a declaration; throws PACK_SPECIFICATION_UNSUPPORTED when the engine does not implement it. */
  declare(pack: PackDeclaration): void {
    const version: unknown = pack.specificationVersion;
    if (typeof version !== 'number' || !this.supported.includes(version)) {
      throw this.unsupported(pack.packageName, version);
    }
    const key = `${pack.packageName}@${version}`;
    if (!this.declared.has(key)) {
      this.declared.set(key, {
        packageName: pack.packageName,
        specificationVersion: pack.specificationVersion,
      });
    }
  }

  /** Accepted declarations in declaration order (the manifest's `packs`). */
  list(): readonly PackDeclaration[] {
    return [...this.declared.values()];
  }

  private unsupported(packageName: string, version: unknown): CoreError {
    const supported = this.supported.join(', ');
    return new CoreError(
      packSpecificationErrorCodes.unsupported,
      `${packageName} implements pack contract specification ${String(version)}, but this engine ` +
        `(@corekit/engine-core ${this.engineVersion}) implements specification ${supported}. Install a ` +
        `release of ${packageName} that implements specification ${supported}, or the @corekit/engine-core ` +
        `release that implements specification ${String(version)} (docs/releasing.md lists them).`,
      {
        packageName,
        packSpecificationVersion: version,
        engineVersion: this.engineVersion,
        supportedSpecificationVersions: [...this.supported],
      },
    );
  }
}
