import path from 'node:path';
import {
  CoreError,
  errorCode,
  type ConfigurationReader,
  type Logger,
  type ModuleDefinition,
  type PackageRecord,
  type RuntimeStoryEntry,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';
import { engineRecordEventIds } from '../engine-record-event-ids';
import { moduleDefinitionFrom, importModuleFile, type ModuleImporter } from './module-package-loader';
import { moduleRoutes, operationShapeProblems, routeKey } from './module-operations';
import { computePackageDigest } from './package-digest';
import {
  discoverPackageCandidates,
  type PackageCandidate,
  type PackageDirectoryState,
} from './package-discovery';
import { readModulePackageManifest, type ModulePackageManifest } from './package-manifest';
import {
  discoveryOptionsSchema,
  packagePolicyOptionsSchema,
  trustOptionsSchema,
  type DiscoveryOptions,
  type PackagePolicyOptions,
} from './package-options';
import { trustDecision, uncheckedPackageFields, verdictFields } from './package-evaluation';
import { describePackagePolicy, packagePolicyDenials } from './package-policy';
import { readPackageSignature } from './package-signature';
import { verifyPackageSignature, type SignatureVerdict } from './signature-verification';
import { createTrustStore, describeTrustStore, type TrustStore } from './trust-store';

/** A module that came from a loaded package, ready to join the engine's modules. */
export interface LoadedPackageModule {
  readonly packageId: string;
  readonly definition: ModuleDefinition;
}

export interface ModulePackagesOptions {
  readonly configuration: ConfigurationReader;
  /** Base of relative Engine:Discovery:PackageDirectories entries. */
  readonly contentRoot: string;
  readonly clock: Clock;
  readonly logger: Logger & { redact?<T>(value: T): T };
  /** Modules registered in code: their ids are taken, their routes are collected too. */
  readonly codeModules: readonly ModuleDefinition[];
  /** Routes already served (`routeKey` → owner): a package module declaring one of them is refused. */
  readonly reservedRoutes?: ReadonlyMap<string, string>;
  /** How module files are imported; tests of the engine never need to replace it. */
  readonly importer?: ModuleImporter;
}

export { requiredReason } from './package-evaluation';

type Recorder = (entry: Omit<RuntimeStoryEntry, 'sequence' | 'atUtc'>) => void;

/**
 * Out-of-tree module packages: discovery in `Engine:Discovery:PackageDirectories`, `Engine:PackagePolicy`,
 * `Engine:Trust`, and the import of what passes. Configuration is validated when constructed (at build);
 * discovery runs once, on the first start, before modules initialize. Nothing of a package runs unless it
 * passed every check: policy, integrity and trust.
 */
export class ModulePackages {
  private readonly discovery: DiscoveryOptions;
  private readonly policy: PackagePolicyOptions;
  private readonly trust: TrustStore;
  private readonly importer: ModuleImporter;
  private readonly takenModuleIds: Set<string>;
  private readonly takenRoutes = new Map<string, string>();
  private readonly packageRecords: PackageRecord[] = [];
  private directories: PackageDirectoryState[] | null = null;
  private discoveredAt: number | null = null;
  private loading: Promise<LoadedPackageModule[]> | null = null;

  constructor(private readonly options: ModulePackagesOptions) {
    this.discovery = options.configuration.bind('Engine:Discovery', discoveryOptionsSchema);
    this.policy = options.configuration.bind('Engine:PackagePolicy', packagePolicyOptionsSchema);
    this.trust = createTrustStore(options.configuration.bind('Engine:Trust', trustOptionsSchema));
    if (this.policy.AllowUnsignedPackages && this.trust.requireSignatureVerification) {
      throw new CoreError(
        'CONFIGURATION_INVALID',
        'Invalid configuration:\n- Engine:PackagePolicy:AllowUnsignedPackages is true but Engine:Trust:RequireSignatureVerification is true, so unsigned packages would still be rejected; set Engine:Trust:RequireSignatureVerification to false to let unsigned packages load',
        {
          section: 'Engine:PackagePolicy',
          problems: ['AllowUnsignedPackages conflicts with RequireSignatureVerification'],
        },
      );
    }
    this.importer = options.importer ?? importModuleFile;
    this.takenModuleIds = new Set(options.codeModules.map((module) => module.id));
    const problems: string[] = [];
    for (const [key, owner] of options.reservedRoutes ?? []) this.takenRoutes.set(key, owner);
    for (const module of options.codeModules) {
      const moduleProblems = operationShapeProblems(module).map(
        (problem) => `module ${module.id}: ${problem}`,
      );
      problems.push(...moduleProblems);
    }
    if (problems.length > 0) {
      throw new CoreError(
        'ENGINE_REGISTRATION_INVALID',
        `The engine cannot be built:\n- ${problems.join('\n- ')}`,
        { problems },
      );
    }
  }

  /**
   * Discovers, checks and imports packages, once; later calls return the first result. If discovery itself
   * throws (an unreadable package directory), the next start tries again from scratch.
   */
  load(record: Recorder): Promise<LoadedPackageModule[]> {
    this.loading ??= this.loadNow(record).catch((error: unknown) => {
      this.loading = null;
      this.packageRecords.length = 0;
      throw error;
    });
    return this.loading;
  }

  records(): readonly PackageRecord[] {
    return [...this.packageRecords];
  }

  packagePolicyDocument(): Record<string, unknown> {
    return {
      packageDirectories:
        this.directories ??
        this.discovery.PackageDirectories.map((configured) => ({
          configured,
          path: path.resolve(this.options.contentRoot, configured),
          exists: null,
          candidates: null,
        })),
      maxFilesPerPackage: this.discovery.MaxFilesPerPackage,
      ...describePackagePolicy(this.policy),
      requireSignatureVerification: this.trust.requireSignatureVerification,
      discoveredAtUtc: this.discoveredAt === null ? null : isoAt(this.discoveredAt),
      decisions: this.packageRecords.map((item) => ({
        id: item.id,
        version: item.version,
        outcome: item.outcome,
        reasons: item.reasons,
      })),
    };
  }

  trustPolicyDocument(): Record<string, unknown> {
    return {
      ...describeTrustStore(this.trust),
      verifications: this.packageRecords.map((item) => ({
        id: item.id,
        version: item.version,
        outcome: item.outcome,
        verification: item.verification,
        signatureAlgorithm: item.signatureAlgorithm,
        signingKeyId: item.signingKeyId,
        certificateThumbprint: item.certificateThumbprint,
        certificateSubject: item.certificateSubject,
        certificateChain: item.certificateChain,
      })),
    };
  }

  private async loadNow(record: Recorder): Promise<LoadedPackageModule[]> {
    const { candidates, directories } = await discoverPackageCandidates(
      this.discovery.PackageDirectories,
      this.options.contentRoot,
    );
    this.directories = directories;
    this.discoveredAt = this.options.clock.now();
    for (const missing of directories.filter((directory) => !directory.exists)) {
      this.log(
        'warn',
        `Package directory ${missing.path} (Engine:Discovery:PackageDirectories entry "${missing.configured}") does not exist`,
      );
    }
    const loaded: LoadedPackageModule[] = [];
    const seen = new Map<string, string>();
    for (const candidate of candidates) {
      const result = await this.evaluate(candidate, seen);
      this.packageRecords.push(inReadingOrder(result.record));
      this.report(result.record, record);
      if (result.module) loaded.push({ packageId: result.record.id, definition: result.module });
    }
    return loaded;
  }

  private async evaluate(
    candidate: PackageCandidate,
    seen: Map<string, string>,
  ): Promise<{ record: PackageRecord; module?: ModuleDefinition }> {
    const base = uncheckedPackageFields(candidate, this.options.clock.now());
    let manifest: ModulePackageManifest;
    try {
      manifest = await readModulePackageManifest(candidate.directory);
    } catch (error) {
      const details = (error as CoreError).details ?? {};
      return {
        record: {
          ...base,
          id: typeof details.id === 'string' ? details.id : path.basename(candidate.directory),
          version: typeof details.version === 'string' ? details.version : 'unknown',
          outcome: 'failed',
          reasons: [this.describe(error)],
        },
      };
    }
    const identity = {
      ...base,
      id: manifest.id,
      version: manifest.version,
      moduleEntry: manifest.moduleEntry,
    };
    const earlier = seen.get(manifest.id);
    if (earlier) {
      return {
        record: {
          ...identity,
          outcome: 'denied',
          reasons: [
            `package ${manifest.id} was already discovered at ${earlier}; the first directory listed in Engine:Discovery:PackageDirectories wins`,
          ],
        },
      };
    }
    seen.set(manifest.id, candidate.directory);
    const denials = packagePolicyDenials(this.policy, manifest.id, manifest.version);
    if (denials.length > 0) return { record: { ...identity, outcome: 'denied', reasons: denials } };

    let verdict: SignatureVerdict;
    let checked = identity;
    try {
      const digest = await computePackageDigest(candidate.directory, {
        maxFiles: this.discovery.MaxFilesPerPackage,
      });
      checked = { ...identity, digest: `sha256:${digest.digest}`, fileCount: digest.files.length };
      const signature = await readPackageSignature(candidate.directory);
      verdict = verifyPackageSignature(signature, digest, this.trust, this.options.clock.now());
    } catch (error) {
      return {
        record: { ...checked, outcome: 'rejected', verification: 'invalid', reasons: [this.describe(error)] },
      };
    }
    checked = { ...checked, ...verdictFields(verdict) };
    const decision = trustDecision(verdict, this.trust, this.policy);
    if (decision.outcome !== null)
      return { record: { ...checked, outcome: decision.outcome, reasons: decision.reasons } };

    let module: ModuleDefinition;
    try {
      module = moduleDefinitionFrom(await this.importer(manifest.moduleFile), manifest.moduleEntry);
    } catch (error) {
      return {
        record: {
          ...checked,
          outcome: 'failed',
          reasons: [`importing ${manifest.moduleEntry} failed: ${this.describe(error)}`],
        },
      };
    }
    const withModule = { ...checked, moduleId: module.id, routes: moduleRoutes(module) };
    if (this.takenModuleIds.has(module.id)) {
      return {
        record: {
          ...withModule,
          outcome: 'failed',
          reasons: [`module id ${module.id} is already registered by another module`],
        },
      };
    }
    const conflicts = this.claimRoutes(module);
    if (conflicts.length > 0) return { record: { ...withModule, outcome: 'failed', reasons: conflicts } };
    this.takenModuleIds.add(module.id);
    return {
      record: {
        ...withModule,
        outcome: 'loaded',
        loadedAtUtc: isoAt(this.options.clock.now()),
        reasons: decision.notes,
      },
      module,
    };
  }

  /** Reserves a module's routes; returns conflicts with routes already declared, reserving nothing then. */
  private claimRoutes(module: ModuleDefinition): string[] {
    const routes = moduleRoutes(module);
    const keys = routes.map((route) => routeKey(route.method, route.path));
    const conflicts = routes
      .filter((_route, index) => this.takenRoutes.has(keys[index]))
      .map(
        (route, index) =>
          `route ${route.method} ${route.path} is already served by ${this.takenRoutes.get(keys[index])}`,
      );
    if (conflicts.length === 0) for (const key of keys) this.takenRoutes.set(key, module.id);
    return conflicts;
  }

  private report(item: PackageRecord, record: Recorder): void {
    const what =
      item.outcome === 'loaded'
        ? `loaded (${String(item.verification)})`
        : `${item.outcome}: ${item.reasons.join('; ')}`;
    const message = `Package ${item.id} ${item.version} from ${item.directory} ${what}`;
    record({
      kind: 'package',
      subjectId: item.id,
      transition: item.outcome,
      message,
      details: {
        version: item.version,
        directory: item.directory,
        verification: item.verification,
        signingKeyId: item.signingKeyId,
        certificateThumbprint: item.certificateThumbprint,
        moduleId: item.moduleId,
        reasons: item.reasons,
      },
    });
    this.log(item.outcome === 'loaded' ? 'info' : 'warn', message, {
      packageId: item.id,
      outcome: item.outcome,
    });
  }

  private describe(error: unknown): string {
    const message = `${String((error as Error)?.message ?? error)}${errorCode(error, '') ? ` (${errorCode(error, '')})` : ''}`;
    return this.options.logger.redact ? this.options.logger.redact(message) : message;
  }

  private log(level: 'info' | 'warn', message: string, fields: Record<string, unknown> = {}): void {
    this.options.logger.log({
      level,
      eventId: engineRecordEventIds.packageDiscovery,
      category: 'engine.packages',
      message,
      ...fields,
    });
  }
}

const fieldOrder = [
  'id',
  'version',
  'outcome',
  'reasons',
  'directory',
  'packageDirectory',
  'moduleId',
  'moduleEntry',
  'verification',
  'signed',
];

/** The same record with the fields a reader looks for first (id, version, outcome, reasons) at the top. */
function inReadingOrder(record: PackageRecord): PackageRecord {
  const ordered: Record<string, unknown> = {};
  for (const field of fieldOrder) if (field in record) ordered[field] = record[field];
  for (const [field, value] of Object.entries(record)) if (!(field in ordered)) ordered[field] = value;
  return ordered as PackageRecord;
}
