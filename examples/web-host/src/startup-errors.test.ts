import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { sampleRoot } from './sample-host';

/** Runs the demo entry point (`src/main.ts` through tsx, as `pnpm demo` does) and collects stderr and the exit code. */
function runDemo(environment: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: sampleRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      COREKIT_DEBUG: '',
      ...environment,
      TSX_TSCONFIG_PATH: 'tsconfig.run.json',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

const stackLine = /^\s+at .+/m;

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
});
