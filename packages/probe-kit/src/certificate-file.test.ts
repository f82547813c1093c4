import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readCertificateFile } from './certificate-file';

describe('readCertificateFile', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'probe-kit-certificate-'));

  it('returns the file content', async () => {
    const file = path.join(directory, 'ca.pem');
    writeFileSync(file, '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n');
    await expect(readCertificateFile(file, 'Engine:X:SslRootCertificate')).resolves.toContain(
      'BEGIN CERTIFICATE',
    );
  });

  it('fails with CERTIFICATE_FILE_UNREADABLE naming the key and the system code', async () => {
    await expect(
      readCertificateFile(path.join(directory, 'missing.pem'), 'Engine:X:Dependencies:0:SslRootCertificate'),
    ).rejects.toMatchObject({
      code: 'CERTIFICATE_FILE_UNREADABLE',
      message: expect.stringMatching(
        /Engine:X:Dependencies:0:SslRootCertificate could not be read \(ENOENT\)/,
      ),
    });
  });
});
