import { readFile } from 'node:fs/promises';
import { CoreError } from '@corekit/abstractions';

/**
 * Reads a PEM file named in configuration (trusted certificate authorities, a client certificate). Fails
 * with CERTIFICATE_FILE_UNREADABLE naming `keyPath` (the full configuration key) and the system error code,
 * never the file's content. Read on every run, so a rotated file is picked up without a restart.
 */
export async function readCertificateFile(filePath: string, keyPath: string): Promise<string> {
  try {
    return await readFile(filePath, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CoreError(
      'CERTIFICATE_FILE_UNREADABLE',
      `The file named by ${keyPath} could not be read (${typeof code === 'string' ? code : 'error'}). Check the path and its permissions.`,
    );
  }
}
