import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

export interface TrustedCertificateJestOptions {
  /** Directory of the package whose jest configuration runs the file. */
  readonly packageDirectory: string;
  /** The test file to run, relative to packageDirectory; name it so the package's testMatch skips it. */
  readonly testFile: string;
  /** PEM certificate the child process trusts, through NODE_EXTRA_CA_CERTS. */
  readonly certificate: string;
  /** Extra environment for the child, such as the ports of the servers the calling test started. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Kill the child after this long (default 120 s). */
  readonly timeoutMs?: number;
}

/**
 * Runs one jest file in a child process that trusts `certificate` as a CA. Node reads NODE_EXTRA_CA_CERTS
 * only at startup (and Node 20 has no API to extend the trusted CAs afterwards), so a test that needs a
 * successful TLS handshake with a self-signed server, through a probe that always verifies certificates,
 * runs its assertions there. Resolves with the exit code and the child's output.
 */
export async function runJestTrustingCertificate(
  options: TrustedCertificateJestOptions,
): Promise<{ exitCode: number | null; output: string }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-trusted-ca-'));
  const certificateFile = path.join(directory, 'ca.pem');
  writeFileSync(certificateFile, options.certificate);
  const jest = createRequire(path.join(options.packageDirectory, 'package.json')).resolve('jest/bin/jest');
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          jest,
          '--ci',
          '--runInBand',
          '--testMatch',
          `<rootDir>/${options.testFile.split(path.sep).join('/')}`,
        ],
        {
          cwd: options.packageDirectory,
          env: { ...process.env, ...options.environment, NODE_EXTRA_CA_CERTS: certificateFile },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120000);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (exitCode) => {
        clearTimeout(timer);
        resolve({ exitCode, output });
      });
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
