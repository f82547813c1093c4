import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface RunCommandOptions {
  readonly cwd: string;
  /** The whole environment of the command. Default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Default 10 minutes. */
  readonly timeoutMs?: number;
}

/** Runs a command to its end; a failure's error carries the command, the folder and the command's output. */
export async function runCommand(
  command: string,
  args: readonly string[],
  options: RunCommandOptions,
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await promisify(execFile)(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 10 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} in ${options.cwd} failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`,
    );
  }
}
