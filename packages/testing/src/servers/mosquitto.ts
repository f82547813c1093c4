import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { refusedPort } from '../network-helpers';
import { startServerProcess, type ServerProcess } from './server-process';

export interface MosquittoOptions {
  /** Users of the password file (name → password). With users, anonymous clients are refused. */
  readonly users?: Readonly<Record<string, string>>;
  /** Extra mosquitto.conf lines (`allow_zero_length_clientid false`...). */
  readonly extraConfiguration?: readonly string[];
}

/** A private mosquitto process on a spare loopback port, with its own configuration and password file. */
export interface MosquittoProcess extends ServerProcess {
  /** `mqtt://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops the broker and deletes its configuration directory. */
  close(): Promise<void>;
}

/**
 * One line of a mosquitto password file in the broker's own PBKDF2-SHA512 format
 * (`user:$7$101$<base64 salt>$<base64 hash>`), the format `mosquitto_passwd` writes.
 */
export function mosquittoPasswordLine(user: string, password: string): string {
  const salt = randomBytes(12);
  const hash = pbkdf2Sync(password, salt, 101, 64, 'sha512');
  return `${user}:$7$101$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * Starts `mosquitto` (from PATH) on 127.0.0.1 with connection logging to stderr (unbuffered), so a
 * test can read what clients sent (`New client connected ... as <client id> (p2, c1, k30, u'user')`).
 */
export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoProcess> {
  const port = await refusedPort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-mosquitto-'));
  const lines = [
    `listener ${port} 127.0.0.1`,
    'persistence false',
    'log_dest stderr',
    'log_type all',
    'connection_messages true',
    // as root, mosquitto would switch to the "mosquitto" user and could no longer read the password file
    `user ${os.userInfo().username}`,
  ];
  if (options.users) {
    const passwordFile = path.join(directory, 'passwords');
    writeFileSync(
      passwordFile,
      Object.entries(options.users)
        .map(([user, password]) => mosquittoPasswordLine(user, password))
        .join('\n') + '\n',
      { mode: 0o600 },
    );
    lines.push('allow_anonymous false', `password_file ${passwordFile}`);
  } else {
    lines.push('allow_anonymous true');
  }
  lines.push(...(options.extraConfiguration ?? []));
  const configurationFile = path.join(directory, 'mosquitto.conf');
  writeFileSync(configurationFile, lines.join('\n') + '\n');
  try {
    const server = await startServerProcess({
      name: 'mosquitto',
      command: 'mosquitto',
      args: ['-c', configurationFile],
      port,
    });
    return Object.assign(server, {
      url: `mqtt://127.0.0.1:${port}`,
      async close() {
        await server.stop();
        rmSync(directory, { recursive: true, force: true });
      },
    });
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
