import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startFixture } from '@corekit/testing/child-process';
import { freePort, portIsFree } from '@corekit/testing/network-helpers';
import { loadCatalog } from './catalog';
import { generateHost } from './generate';

// A generated web host and worker host, started as a process (`src/main.ts` through tsx, the @corekit packages from
// the workspace sources), with a misspelled key, an invalid value or a module whose start throws: each exits 1 with
// the one readable block on stderr, no stack trace, and its port free afterwards.
jest.setTimeout(120_000);

const packageDirectory = path.resolve(__dirname, '..');
const fixtures = path.join(__dirname, 'test-fixtures');
let root = '';

/** The generated host, with one module of its own that throws at start when FIXTURE_BROKEN_MODULE=1. */
function generate(host: 'web' | 'worker'): void {
  const directory = path.join(root, host);
  generateHost({ directory, host, probes: ['http'], packs: [], targets: [] }, loadCatalog());
  const file = path.join(directory, 'src/host.ts');
  const anchor = '  const token = environment.OPERATOR_TOKEN;';
  const source = readFileSync(file, 'utf8');
  if (!source.includes(anchor)) throw new Error(`the ${host} template changed: no "${anchor}"`);
  writeFileSync(
    file,
    source.replace(
      anchor,
      `  if (environment.FIXTURE_BROKEN_MODULE === '1')
    builder.addModule({ id: 'billing', version: '1.0.0', start: () => { throw new Error('the license server said no'); } });
${anchor}`,
    ),
  );
}

beforeAll(() => {
  root = mkdtempSync(path.join(fixtures, 'generated-'));
  generate('web');
  generate('worker');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function startHost(host: 'web' | 'worker', environment: Record<string, string>) {
  const port = await freePort();
  const fixture = startFixture(
    packageDirectory,
    path.relative(fixtures, path.join(root, host, 'src/main.ts')),
    { NODE_ENV: 'development', COREKIT_DEBUG: '', PORT: String(port), ...environment },
  );
  let stderr = '';
  fixture.child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const code = await fixture.exited;
  return { code, stderr, stdout: fixture.lines.join('\n'), port };
}

const stackLine = /^\s+at .+/m;
/** The web host's "listening" record (event id 2010). */
const listening = '"eventId":2010';

describe.each(['web', 'worker'] as const)('a generated %s host', (host) => {
  it.each([
    ['Engine__FailurePolicy__StartupReadinessDelays', '00:00:05', 'StartupReadinessDelay'],
    ['Engine__Web__Health__ShowDetail', 'Always', 'ShowDetails'],
    ['Engine__Observability__DependencyHealth__Http__RefreshIntervalSecond', '15', 'RefreshIntervalSeconds'],
  ])(
    'exits 1 before it listens on the misspelled key %s, naming the closest key',
    async (key, value, closest) => {
      const { code, stderr, stdout, port } = await startHost(host, { [key]: value });
      expect(code).toBe(1);
      expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
      expect(stderr).toContain(
        `\`${key.split('__').join(':')}\` is not a known key; did you mean \`${closest}\`?`,
      );
      expect(stderr).toContain('What to do:');
      expect(stderr).not.toMatch(stackLine);
      expect(stdout).not.toContain(listening);
      expect(await portIsFree(port)).toBe(true);
    },
  );

  it('exits 1 on an invalid value, naming its key path', async () => {
    const { code, stderr, port } = await startHost(host, {
      Engine__FailurePolicy__StartupReadinessDelay: 'soon',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
    expect(stderr).toMatch(/- Engine:FailurePolicy:StartupReadinessDelay must be a duration .*got "soon"/);
    expect(stderr).not.toMatch(stackLine);
    expect(await portIsFree(port)).toBe(true);
  });

  it('exits 1 when a module throws at start, after closing the port it listened on', async () => {
    const { code, stderr, stdout, port } = await startHost(host, { FIXTURE_BROKEN_MODULE: '1' });
    expect(code).toBe(1);
    expect(stdout).toContain(listening);
    expect(stderr).toContain('Startup failed: ENGINE_START_FAILED');
    expect(stderr).toContain('the license server said no');
    expect(stderr).not.toMatch(stackLine);
    expect(await portIsFree(port)).toBe(true);
  });
});
