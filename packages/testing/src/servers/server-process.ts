import { spawn, type ChildProcess } from 'node:child_process';
import { isPortOpen } from '../network-helpers';

/** A server binary the test runs itself (nats-server, mosquitto...) on a fixed loopback port. */
export interface ServerProcess {
  readonly host: string;
  readonly port: number;
  readonly running: boolean;
  /** Everything the process wrote to stdout and stderr so far (for assertions and failure messages). */
  output(): string;
  /** Terminates the process (SIGTERM, then SIGKILL after 5 s) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts the process again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
}

export interface ServerProcessOptions {
  /** Name in error messages. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The port the process listens on (on 127.0.0.1); start() resolves once it accepts connections. */
  readonly port: number;
  /** How long start() waits for the port (default 15 s). */
  readonly startTimeoutMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns `command` and resolves once `port` accepts connections; fails with the process output otherwise. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let log = '';

  const start = async () => {
    if (child) return;
    const spawned = spawn(options.command, [...options.args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = spawned;
    let hasExited = false;
    let spawnError: Error | null = null;
    exited = new Promise<void>((resolve) => {
      spawned.once('close', () => {
        hasExited = true;
        if (child === spawned) child = null;
        resolve();
      });
    });
    spawned.on('error', (error) => {
      spawnError = error;
    });
    spawned.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    spawned.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    const deadline = Date.now() + (options.startTimeoutMs ?? 15000);
    while (Date.now() < deadline) {
      if (spawnError)
        throw new Error(
          `${options.name} could not be started (${options.command}): ${(spawnError as Error).message}`,
        );
      if (hasExited) throw new Error(`${options.name} exited during startup:\n${log}`);
      if (await isPortOpen('127.0.0.1', options.port, 500)) return;
      await pause(50);
    }
    await stop();
    throw new Error(
      `${options.name} did not accept connections on port ${options.port} within the start timeout:\n${log}`,
    );
  };

  const stop = async () => {
    const current = child;
    if (!current) return;
    current.kill('SIGTERM');
    const killer = setTimeout(() => current.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };

  await start();
  return {
    host: '127.0.0.1',
    port: options.port,
    get running() {
      return child !== null;
    },
    output: () => log,
    stop,
    start,
  };
}
