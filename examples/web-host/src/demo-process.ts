import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sampleRoot } from './sample-host';

/** The demo entry point running as a child process, with what it printed so far. */
export interface DemoProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** The exit code once the process ends on its own; SIGKILL if it is still running after `boundMs`. */
  exit(boundMs: number): Promise<number | null>;
  /** SIGTERM (the demo shuts down gracefully), then the exit; SIGKILL if it is still running after `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Starts the demo entry point (`src/main.ts` through tsx, what `pnpm demo` runs once the console's UI is built)
 * in development with `environment` added, collecting stdout and stderr. Its data folder is a new one of its
 * own unless `environment` names one (`SAMPLE_DATA_DIRECTORY`), never the demo's shared default.
 */
export function spawnDemo(environment: Record<string, string>): DemoProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: sampleRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      COREKIT_DEBUG: '',
      SAMPLE_DATA_DIRECTORY: mkdtempSync(path.join(os.tmpdir(), 'corekit-sample-demo-')),
      ...environment,
      TSX_TSCONFIG_PATH: 'tsconfig.run.json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  async function exit(boundMs: number): Promise<number | null> {
    const timer = setTimeout(() => child.kill('SIGKILL'), boundMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  }
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    exit,
    stop(graceMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exit(graceMs);
    },
  };
}
