import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderArtifacts, type DeploymentTarget } from './artifacts';
import type { Catalog, PackChoice, ProbeChoice } from './catalog';
import { readEngineConfiguration, type DeploySettings } from './host-configuration';
import { packageRoot } from './package-root';
import { renderTemplate } from './render';
import { computeTimings } from './timings';

/** What to generate: every prompt of the CLI, also given as flags. */
export interface GenerateOptions {
  /** Folder to create; its base name is the service name. */
  readonly directory: string;
  readonly host: 'web' | 'worker';
  readonly probes: readonly string[];
  readonly packs: readonly string[];
  readonly targets: readonly DeploymentTarget[];
  readonly port?: number;
}

/** Third-party versions the generated host pins (ranges, as a consumer would write them). */
export const thirdPartyVersions = {
  zod: '^4.1.0',
  tsup: '^8.5.0',
  tsx: '^4.20.0',
  typescript: '~5.9.3',
  '@types/node': '^20.19.0',
} as const;

function pick<T extends { id: string }>(available: readonly T[], ids: readonly string[], what: string): T[] {
  return ids.map((id) => {
    const found = available.find((choice) => choice.id === id);
    if (!found)
      throw new Error(`unknown ${what} "${id}": choose from ${available.map((c) => c.id).join(', ')}`);
    return found;
  });
}

/** Packs in registration order: each after the packs it needs, which are added when missing. */
function withNeeds(catalog: Catalog, ids: readonly string[]): PackChoice[] {
  const ordered: PackChoice[] = [];
  const visit = (pack: PackChoice) => {
    if (ordered.includes(pack)) return;
    for (const need of pick(catalog.packs, pack.needs, 'pack')) visit(need);
    ordered.push(pack);
  };
  for (const pack of pick(catalog.packs, ids, 'pack')) visit(pack);
  return ordered;
}

function version(catalog: Catalog, name: string): string {
  const found = catalog.versions[name];
  if (!found) throw new Error(`no version known for ${name}`);
  return found;
}

/** The engine.json of the new host: failure policy, drain, and one starting dependency per probe. */
export function engineJson(host: 'web' | 'worker', probes: readonly ProbeChoice[]): Record<string, unknown> {
  const sections = Object.fromEntries(
    probes.map((probe) => [
      probe.section,
      { RefreshIntervalSeconds: 15, Dependencies: [{ ...probe.sample, TimeoutSeconds: 3 }] },
    ]),
  );
  return {
    Engine: {
      FailurePolicy: { StartupReadinessDelay: '0s', ShutdownLivenessGracePeriod: '30s' },
      Web: { Health: { ShowDetails: 'WhenAuthorized' }, DrainTimeout: host === 'web' ? '20s' : '10s' },
      // Every wait of a stop, written out so the deployment numbers (`npm run check`) show where they come from.
      Shutdown: { StoppingHooksTimeout: '10s', JobStopTimeout: '10s', StoreCloseTimeout: '5s' },
      Observability: { DependencyHealth: sections },
    },
  };
}

function walk(directory: string, prefix = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(path.join(directory, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** Writes the host: its sources from templates/host and templates/<host>, engine.json, deploy.json, artifacts. */
export function generateHost(options: GenerateOptions, catalog: Catalog): { files: string[] } {
  const directory = path.resolve(options.directory);
  const name = path
    .basename(directory)
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  if (existsSync(directory) && readdirSync(directory).length > 0)
    throw new Error(`${directory} exists and is not empty`);
  const probes = pick(catalog.probes, options.probes, 'probe');
  const packs = withNeeds(catalog, options.packs);
  // The container image runs the active LTS; the build targets the oldest major the engines range allows.
  const nodeMajor = 24;
  const buildTargetMajor = 20;
  const corekit = ['abstractions', 'engine-core', 'observability', 'web-host', 'worker-host']
    .concat(
      probes.map((probe) => probe.folder),
      packs.map((pack) => pack.folder),
    )
    .map((folder) => `@corekit/${folder}`);
  const dependencies = Object.fromEntries([
    ...corekit.sort().map((pkg) => [pkg, version(catalog, pkg)]),
    ['zod', thirdPartyVersions.zod],
  ]);
  const devDependencies = {
    '@types/node': thirdPartyVersions['@types/node'],
    'create-corekit-host': version(catalog, 'create-corekit-host'),
    tsup: thirdPartyVersions.tsup,
    tsx: thirdPartyVersions.tsx,
    typescript: thirdPartyVersions.typescript,
  };
  const settings: DeploySettings = {
    name,
    host: options.host,
    port: options.port ?? 3000,
    targets: options.targets,
    image: `${name}:0.1.0`,
    namespace: name,
    replicas: 2,
    resources: { cpu: '250m', memory: '512Mi' },
    installDirectory: `/opt/${name}`,
    nodeMajor,
  };
  const scope = {
    name,
    host: options.host,
    description: `Core ${options.host} host`,
    probes,
    packs,
    targets: options.targets,
    container: options.targets.includes('container'),
    worker: options.host === 'worker',
    /** The console pack is chosen: the web host prints its address. */
    console: packs.some((pack) => pack.id === 'console'),
    buildTargetMajor,
    dependencies,
    devDependencies,
  };
  const written: string[] = [];
  const write = (relative: string, content: string) => {
    const file = path.join(directory, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    written.push(relative);
  };
  const templates = path.join(packageRoot(), 'templates');
  for (const folder of ['host', options.host]) {
    for (const relative of walk(path.join(templates, folder))) {
      const text = renderTemplate(
        readFileSync(path.join(templates, folder, relative), 'utf8'),
        scope,
        `${folder}/${relative}`,
      );
      const target = relative.replace(/\.tmpl$/, '').replace(/(^|\/)_(gitignore)$/, '$1.$2');
      write(target, target.endsWith('.json') ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text);
    }
  }
  write('engine.json', `${JSON.stringify(engineJson(options.host, probes), null, 2)}\n`);
  write('deploy.json', `${JSON.stringify(settings, null, 2)}\n`);
  const timings = computeTimings(readEngineConfiguration(directory));
  for (const [relative, content] of renderArtifacts(settings, timings)) write(relative, content);
  return { files: written };
}
