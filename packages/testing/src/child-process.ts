import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** A TypeScript fixture running in a child node process (through tsx), with its stdout split into lines. */
export interface FixtureProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves with the first line containing `text` (already seen or still to come); rejects after `timeoutMs`. */
  waitForLine(text: string, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `<packageDirectory>/src/test-fixtures/<fixture>` in a child node process through tsx, with the @corekit
 * packages mapped to their sources by that folder's tsconfig.json. The package must depend on tsx.
 */
export function startFixture(
  packageDirectory: string,
  fixture: string,
  environment: Record<string, string> = {},
): FixtureProcess {
  return startTsxProcess({
    cwd: packageDirectory,
    entry: path.join('src/test-fixtures', fixture),
    tsconfig: 'src/test-fixtures/tsconfig.json',
    environment,
  });
}

/** What `startTsxProcess` runs. */
export interface TsxProcessOptions {
  /** Directory the process runs in (paths below are relative to it). */
  readonly cwd: string;
  /** The TypeScript entry point (`src/main.ts`). */
  readonly entry: string;
  /** The tsconfig tsx reads (its `paths` may map the @corekit packages to their sources). */
  readonly tsconfig: string;
  /** Added to this process's environment. */
  readonly environment?: Record<string, string>;
}

/** Starts a TypeScript entry point in a child node process through tsx (the package must depend on tsx). */
export function startTsxProcess(options: TsxProcessOptions): FixtureProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', options.entry], {
    cwd: options.cwd,
    env: { ...process.env, ...options.environment, TSX_TSCONFIG_PATH: options.tsconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: Array<{ text: string; resolve: (line: string) => void }> = [];
  let buffered = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (line.includes(waiter.text)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    waitForLine(text, timeoutMs = 20_000) {
      const seen = lines.find((line) => line.includes(text));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(
            new Error(
              `no line containing ${JSON.stringify(text)} within ${timeoutMs} ms; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`,
            ),
          );
        }, timeoutMs);
        const settle = (line: string) => {
          clearTimeout(timer);
          resolve(line);
        };
        waiters.push({ text, resolve: settle });
        void exited.then(() => {
          if (waiters.some((waiter) => waiter.resolve === settle)) {
            clearTimeout(timer);
            reject(
              new Error(
                `the fixture exited before printing ${JSON.stringify(text)}; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`,
              ),
            );
          }
        });
      });
    },
  };
}
