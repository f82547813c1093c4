import path from 'node:path';
import { startFixture } from '@corekit/testing/child-process';

/** Runs the failing-startup fixture with `configuration` as its code options; collects stderr and the exit code. */
async function failedStartup(
  configuration: Record<string, unknown>,
  environment: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const fixture = startFixture(path.resolve(__dirname, '..'), 'startup-error-process.ts', {
    FIXTURE_CONFIGURATION: JSON.stringify(configuration),
    COREKIT_DEBUG: '',
    ...environment,
  });
  let stderr = '';
  fixture.child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const code = await fixture.exited;
  return { code, stderr, stdout: fixture.lines.join('\n') };
}

/** Lines of a V8 stack trace ("    at fn (file:line:column)"). */
const stackLine = /^\s+at .+/m;

describe('startup errors in a child process', () => {
  it('an invalid configuration value exits 1 with one readable block on stderr and no stack trace', async () => {
    const { code, stderr } = await failedStartup({
      Engine: { FailurePolicy: { StartupReadinessDelay: 'soon' } },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
    expect(stderr).toMatch(/- Engine:FailurePolicy:StartupReadinessDelay must be a duration .*got "soon"/);
    expect(stderr).toContain('What to do:');
    expect(stderr).not.toMatch(stackLine);
    expect(stderr).not.toContain('ELIFECYCLE');
  });

  it('a misspelled key exits 1 naming the key path and the closest known key', async () => {
    const { code, stderr } = await failedStartup({
      Engine: { FailurePolicy: { StartupReadinesDelay: '5s' } },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('CONFIGURATION_INVALID');
    expect(stderr).toContain('Engine:FailurePolicy:StartupReadinesDelay');
    expect(stderr).toContain('StartupReadinessDelay');
    expect(stderr).not.toMatch(stackLine);
  });

  it('with COREKIT_DEBUG=1 the same report carries the stack trace', async () => {
    const { code, stderr } = await failedStartup(
      { Engine: { FailurePolicy: { StartupReadinessDelay: 'soon' } } },
      { COREKIT_DEBUG: '1' },
    );
    expect(code).toBe(1);
    expect(stderr).toContain('Startup failed: CONFIGURATION_INVALID');
    expect(stderr).toMatch(stackLine);
  });
});
