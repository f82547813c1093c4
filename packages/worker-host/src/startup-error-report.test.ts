import { CoreError } from '@corekit/abstractions';
import { formatStartupError, isDebugEnabled, runStartup } from './startup-error-report';

describe('formatStartupError', () => {
  it('names the outer code and the causes, lists the problems of the innermost error that has them', () => {
    const cause = new CoreError(
      'CONFIGURATION_INVALID',
      'Invalid configuration:\n- Engine:Web:Port must be a number',
      {
        problems: [
          'Engine:Web:Port must be a number, got "abc"',
          { path: 'Engine:Web:DrainTimeout', message: 'too long' },
        ],
      },
    );
    const error = new CoreError('ENGINE_START_FAILED', 'The runtime failed to start', {}, { cause });
    const report = formatStartupError(error, { debug: false });
    expect(report.split('\n')[0]).toBe(
      'Startup failed: ENGINE_START_FAILED (caused by CONFIGURATION_INVALID)',
    );
    expect(report).toContain('    - Engine:Web:Port must be a number, got "abc"\n');
    expect(report).toContain('    - Engine:Web:DrainTimeout: too long\n');
    expect(report).toMatch(/What to do: Correct each key path above/);
    expect(report).not.toMatch(/^\s+at /m);
  });

  it("prefers the error's own whatToDo and prints the whole message when there is no problem list", () => {
    const error = new CoreError('HOST_PORT_IN_USE', 'Port 3000 is in use\nby another process', {
      whatToDo: 'Set PORT to a free port.',
    });
    const report = formatStartupError(error, { debug: false });
    expect(report).toContain('  Port 3000 is in use\n  by another process\n');
    expect(report).toContain('  What to do: Set PORT to a free port.\n');
  });

  it('adds the stack traces only in debug mode', () => {
    const error = new Error('boom', { cause: new Error('inner') });
    expect(formatStartupError(error, { debug: true })).toMatch(/^\s+at /m);
    expect(formatStartupError(error, { debug: true })).toContain('Caused by: Error: inner');
    expect(formatStartupError(error, { environment: {} })).not.toMatch(/^\s+at /m);
    expect(formatStartupError(error, { environment: {} }).split('\n')[0]).toBe(
      'Startup failed: UNEXPECTED_ERROR',
    );
  });

  it('reads COREKIT_DEBUG as 1, true or yes', () => {
    expect(
      ['1', 'true', 'YES', '0', '', undefined].map((value) => isDebugEnabled({ COREKIT_DEBUG: value })),
    ).toEqual([true, true, true, false, false, false]);
  });
});

describe('runStartup', () => {
  it('reports what main throws and exits 1; resolves with what main returns otherwise', async () => {
    const written: string[] = [];
    const exits: number[] = [];
    const options = { write: (text: string) => written.push(text), exit: (code: number) => exits.push(code) };
    await expect(runStartup(() => 42, options)).resolves.toBe(42);
    const failure = new CoreError('CONFIGURATION_INVALID', 'Invalid configuration', {
      problems: ['Engine:X bad'],
    });
    await expect(
      runStartup(async () => {
        throw failure;
      }, options),
    ).rejects.toBe(failure);
    expect(exits).toEqual([1]);
    expect(written.join('')).toContain('- Engine:X bad');
  });
});
