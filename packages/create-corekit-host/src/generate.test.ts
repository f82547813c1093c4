import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { loadCatalog } from './catalog';
import { checkHost, writeArtifacts } from './check';
import { generateHost } from './generate';
import { renderTemplate } from './render';

const catalog = loadCatalog();
let root = '';
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'create-corekit-host-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('renderTemplate', () => {
  it('inserts values, repeats sections over arrays, keeps inverted sections for empty values', () => {
    const text = '{{name}}:{{#items}} {{id}}@{{name}}{{/items}}{{^none}} empty{{/none}}';
    expect(renderTemplate(text, { name: 'x', items: [{ id: 'a' }, { id: 'b' }], none: [] })).toBe(
      'x: a@x b@x empty',
    );
  });
  it('refuses a placeholder with no value rather than rendering an empty string', () => {
    expect(() => renderTemplate('{{nme}}', { name: 'x' }, 't')).toThrow('template t: no value named "nme"');
  });
});

describe('generateHost', () => {
  it('writes a web host with pinned workspace versions, the probes registered, and every artifact', () => {
    const directory = path.join(root, 'orders-service');
    const { files } = generateHost(
      {
        directory,
        host: 'web',
        probes: ['http', 'redis'],
        packs: [],
        targets: ['kubernetes', 'systemd', 'iis'],
      },
      catalog,
    );
    const pkg = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
    const webHostVersion = JSON.parse(
      readFileSync(path.join(__dirname, '../../web-host/package.json'), 'utf8'),
    ).version;
    expect(pkg.dependencies['@corekit/web-host']).toBe(webHostVersion);
    expect(pkg.dependencies['@corekit/probe-redis']).toMatch(/^\d+\.\d+\.\d+/);
    const host = readFileSync(path.join(directory, 'src/host.ts'), 'utf8');
    expect(host).toContain("import { addRedisHealth } from '@corekit/probe-redis';");
    expect(host).toContain('addHttpHealth(builder);');
    expect(files).toEqual(
      expect.arrayContaining([
        'Dockerfile',
        'deploy/kubernetes/deployment.yaml',
        'deploy/systemd/orders-service.service',
        'deploy/iis/web.config',
        '.gitignore',
      ]),
    );
    expect(files).not.toContain('deploy/container-app/containerapp.yaml');
    expect(existsSync(path.join(directory, 'src/host.ts.tmpl'))).toBe(false);
  });

  it('adds the packs a pack needs, before it', () => {
    const governance = catalog.packs.find((pack) => pack.id === 'tenant-governance');
    if (!governance) return expect(catalog.packs.map((pack) => pack.id)).not.toContain('tenant-governance');
    const directory = path.join(root, 'tenants');
    generateHost(
      { directory, host: 'worker', probes: [], packs: ['tenant-governance'], targets: [] },
      catalog,
    );
    const host = readFileSync(path.join(directory, 'src/host.ts'), 'utf8');
    expect(host.indexOf('addMultiTenancy(builder)')).toBeGreaterThan(0);
    expect(host.indexOf('addMultiTenancy(builder)')).toBeLessThan(
      host.indexOf('addTenantGovernance(builder)'),
    );
  });

  it('offers the console: a web host registers it and prints its address', () => {
    expect(catalog.packs.map((pack) => pack.id)).toContain('console');
    const directory = path.join(root, 'with-console');
    generateHost({ directory, host: 'web', probes: [], packs: ['console'], targets: [] }, catalog);
    expect(readFileSync(path.join(directory, 'src/host.ts'), 'utf8')).toContain('addConsole(builder)');
    expect(readFileSync(path.join(directory, 'src/main.ts'), 'utf8')).toContain(
      'console ${url}/engine/console',
    );
    const plain = path.join(root, 'without-console');
    generateHost({ directory: plain, host: 'web', probes: [], packs: [], targets: [] }, catalog);
    expect(readFileSync(path.join(plain, 'src/main.ts'), 'utf8')).not.toContain('/engine/console');
  });

  it("gives the generated worker's rounds an event id of its own, registered and tested, never a spec id", () => {
    const directory = path.join(root, 'rounds');
    generateHost({ directory, host: 'worker', probes: [], packs: [], targets: [] }, catalog);
    const host = readFileSync(path.join(directory, 'src/host.ts'), 'utf8');
    expect(host).toContain('export const hostEventIds = { workRound: 9000 } as const;');
    expect(host).toContain(
      "builder.addEventIds({ component: 'rounds', ranges: [[9000, 9099]], names: { 9000: 'work-round' } });",
    );
    expect(host).toContain('eventId: hostEventIds.workRound');
    expect(host).not.toMatch(/eventId: 2\d\d\d/);
    const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
    expect(manifest.scripts.test).toBe('tsx --test src/host.test.ts src/event-ids.test.ts');
    expect(readFileSync(path.join(directory, 'src/event-ids.test.ts'), 'utf8')).toContain(
      "entry.component === 'rounds'",
    );
  });

  it('refuses an unknown probe, naming the choices', () => {
    expect(() =>
      generateHost(
        { directory: path.join(root, 'x'), host: 'web', probes: ['redi'], packs: [], targets: [] },
        catalog,
      ),
    ).toThrow(/unknown probe "redi": choose from http, redis/);
  });
});

describe('corekit-host check', () => {
  it('follows a configuration change into the artifacts and reports them stale until rewritten', () => {
    const directory = path.join(root, 'svc');
    generateHost(
      { directory, host: 'web', probes: ['redis'], packs: [], targets: ['kubernetes', 'systemd'] },
      catalog,
    );
    expect(checkHost(directory).stale).toEqual([]);
    const enginePath = path.join(directory, 'engine.json');
    const engine = JSON.parse(readFileSync(enginePath, 'utf8'));
    engine.Engine.FailurePolicy.ShutdownLivenessGracePeriod = '00:01:00';
    engine.Engine.Observability.DependencyHealth.Redis.Dependencies[0].TimeoutSeconds = 7;
    writeFileSync(enginePath, JSON.stringify(engine));
    const report = checkHost(directory);
    expect(report.stale).toEqual(
      expect.arrayContaining(['deploy/kubernetes/deployment.yaml', 'deploy/systemd/svc.service']),
    );
    expect(report.text).toContain('G = 60 s  from Engine:FailurePolicy:ShutdownLivenessGracePeriod');
    expect(report.text).toContain(
      'T = 7 s  from Engine:Observability:DependencyHealth:Redis:Dependencies:0:TimeoutSeconds',
    );
    writeArtifacts(directory);
    expect(checkHost(directory).stale).toEqual([]);
    const deployment = parse(readFileSync(path.join(directory, 'deploy/kubernetes/deployment.yaml'), 'utf8'));
    // preStop T + 1 = 8, then max(hooks 10 + drain 20 + jobs 10 + stores 5, grace 60) + T 7 = 67.
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(8 + 67);
    expect(readFileSync(path.join(directory, 'deploy/systemd/svc.service'), 'utf8')).toContain(
      'TimeoutStopSec=67\n',
    );
  });
});

describe('generated manifests', () => {
  it('point every startup probe at /health/startup and count every wait of a stop in the grace period', () => {
    const directory = path.join(root, 'fresh');
    generateHost(
      { directory, host: 'web', probes: ['redis'], packs: [], targets: ['kubernetes', 'container-app'] },
      catalog,
    );
    const deployment = parse(readFileSync(path.join(directory, 'deploy/kubernetes/deployment.yaml'), 'utf8'));
    const container = deployment.spec.template.spec.containers[0];
    expect(container.startupProbe.httpGet.path).toBe('/health/startup');
    expect(container.livenessProbe.httpGet.path).toBe('/health/live');
    const app = parse(readFileSync(path.join(directory, 'deploy/container-app/containerapp.yaml'), 'utf8'));
    const startup = app.properties.template.containers[0].probes.find(
      (probe: { type: string }) => probe.type === 'Startup',
    );
    expect(startup.httpGet.path).toBe('/health/startup');
    // preStop T 3 + 1 = 4, then max(hooks 10 + drain 20 + jobs 10 + stores 5, grace 30) + T 3 = 48.
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(4 + 48);
    const report = checkHost(directory).text;
    expect(report).toContain('H = 10 s  from Engine:Shutdown:StoppingHooksTimeout');
    expect(report).toContain('J = 10 s  from Engine:Shutdown:JobStopTimeout');
    expect(report).toContain('C = 5 s  from Engine:Shutdown:StoreCloseTimeout');
  });
});
