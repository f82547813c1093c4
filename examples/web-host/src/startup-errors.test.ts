import { createServer, type Server } from 'node:net';
import { freePort, portIsFree } from '@corekit/testing/network-helpers';
import { spawnDemo } from './demo-process';

jest.setTimeout(120_000);

/**
 * Runs the demo entry point (`src/main.ts` through tsx, as `pnpm demo` does) and collects stdout, stderr and the
 * exit code. A demo still running after 90 s is killed (the test then fails on its exit code): the bound only
 * stops a hung demo; a loaded CI machine may need tens of seconds to compile and start it.
 */
async function runDemo(
  environment: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const demo = spawnDemo(environment);
  const code = await demo.exit(90_000);
  return { code, stderr: demo.stderr(), stdout: demo.stdout() };
}

const stackLine = /^\s+at .+/m;
/** The web host's "listening" record (event id 2010). */
const listening = '"eventId":2010';

describe('the demo entry point', () => {
  let blocker: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (blocker ? blocker.close(() => resolve()) : resolve())));

  it('a port in use exits 1 with one block naming the port and PORT / Engine:Web:Port, no stack trace', async () => {
    blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker!.listen(0, () => resolve((blocker!.address() as { port: number }).port)),
    );
    const { code, stderr } = await runDemo({ PORT: String(port) });
    expect(code).toBe(1);
    expect(stderr).toContain('Startup failed: HOST_PORT_IN_USE');
    expect(stderr).toContain(`port ${port}`);
    expect(stderr).toMatch(/What to do: Set PORT or Engine:Web:Port/);
    expect(stderr).not.toMatch(stackLine);
  });

  it('an invalid configuration value exits 1 naming its key path', async () => {
    const { code, stderr } = await runDemo({ Engine__Sample__Upstream__Port: 'eighty' });
    expect(code).toBe(1);
    expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
    expect(stderr).toContain('- Engine:Sample:Upstream:Port');
    expect(stderr).not.toMatch(stackLine);
  });

  // The keys of the README's configuration examples, each misspelled as an operator might. The engine reports every
  // unknown key of one start in one block, so one demo run checks them together: it ends before it listens, names
  // each key with the closest known one, and leaves its HTTP and gRPC ports free. A store provider key is refused
  // earlier, when the stores are bound, and gets a run of its own.
  const misspelled = [
    ['Engine__FailurePolicy__StartupReadinessDelays', '00:00:05', 'StartupReadinessDelay'],
    ['Engine__Web__EngineRoutes__Exposur', 'Open', 'Exposure'],
    ['Engine__Sample__Upstream__Prot', '0', 'Port'],
    ['Engine__Web__Health__ShowDetail', 'Always', 'ShowDetails'],
    ['Engine__Startup__Timout', '00:01:00', 'Timeout'],
  ] as const;
  it.each([
    ['the README examples', misspelled],
    ['the store provider', [['Engine__Stores__Provdier', 'Redis', 'Provider']] as const],
  ])(
    'misspelled keys of %s exit 1 before listening, each named with the closest key',
    async (_what, keys) => {
      const [port, grpcPort] = [await freePort(), await freePort()];
      const { code, stderr, stdout } = await runDemo({
        PORT: String(port),
        Engine__Grpc__Port: String(grpcPort),
        ...Object.fromEntries(keys.map(([key, value]) => [key, value])),
      });
      expect(code).toBe(1);
      expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
      expect(stderr).toContain(`Problems (${keys.length}):`);
      for (const [key, , closest] of keys)
        expect(stderr).toContain(
          `\`${key.split('__').join(':')}\` is not a known key; did you mean \`${closest}\`?`,
        );
      expect(stderr).toContain('What to do:');
      expect(stderr).not.toMatch(stackLine);
      expect(stdout).not.toContain(listening);
      expect([await portIsFree(port), await portIsFree(grpcPort)]).toEqual([true, true]);
    },
  );

  it('an Engine:Web value the web host refuses exits 1 naming the key, its HTTP and gRPC ports free', async () => {
    const [port, grpcPort] = [await freePort(), await freePort()];
    const { code, stderr, stdout } = await runDemo({
      PORT: String(port),
      Engine__Grpc__Port: String(grpcPort),
      Engine__Web__MaxRequestBodyBytes: '-1',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
    expect(stderr).toContain('Engine:Web:MaxRequestBodyBytes');
    expect(stderr).toContain('What to do:');
    expect(stderr).not.toMatch(stackLine);
    expect(stdout).not.toContain(listening);
    expect([await portIsFree(port), await portIsFree(grpcPort)]).toEqual([true, true]);
  });

  it('a pack whose start throws (the gRPC port taken) exits 1 readably after closing the HTTP port', async () => {
    blocker = createServer();
    const grpcPort = await new Promise<number>((resolve) =>
      blocker!.listen(0, () => resolve((blocker!.address() as { port: number }).port)),
    );
    const port = await freePort();
    const { code, stderr, stdout } = await runDemo({
      PORT: String(port),
      Engine__Grpc__Port: String(grpcPort),
    });
    expect(code).toBe(1);
    expect(stdout).toContain(listening);
    expect(stderr).toContain('Startup failed: ENGINE_START_FAILED (caused by GRPC_LISTEN_FAILED)');
    expect(stderr).toContain('Engine:Grpc:Port');
    expect(stderr).not.toMatch(stackLine);
    expect(await portIsFree(port)).toBe(true);
    // The engine recorded the failure before the host ended the process: Failed, restartable (a pack's start).
    const failed = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((record) => record.category === 'engine' && record.eventId === 2002);
    expect(failed).toMatchObject({ errorCode: 'GRPC_LISTEN_FAILED', restartable: true });
  });
});
