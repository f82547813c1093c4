import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { ServerCredentials } from '@grpc/grpc-js';
import { CoreError } from '@corekit/abstractions';
import { grpcSectionPath, type GrpcOptions, type GrpcTlsOptions } from './grpc-options';

/** What the surface says about client certificates: required (mutual TLS) or not asked for. */
export type ClientCertificateMode = 'required' | 'none';

export function clientCertificateMode(tls: GrpcTlsOptions | undefined): ClientCertificateMode {
  return tls?.RequireClientCertificate ? 'required' : 'none';
}

type TlsFileKey = 'CertificateFile' | 'PrivateKeyFile' | 'ClientCaFile';

function readTlsFile(key: TlsFileKey, file: string, workingDirectory: string): Buffer {
  const absolute = path.resolve(workingDirectory, file);
  try {
    return readFileSync(absolute);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CoreError(
      'GRPC_TLS_FILE_UNREADABLE',
      `${grpcSectionPath}:Tls:${key}: cannot read "${absolute}" (${reason})`,
      { key: `${grpcSectionPath}:Tls:${key}`, file: absolute },
    );
  }
}

/**
 * The server credentials for `settings`: insecure without `Tls`, else `ServerCredentials.createSsl` with the
 * certificate, its key and (with RequireClientCertificate) the client CA, read now from their files. The
 * files are checked with node:tls first, so a bad PEM or a key that does not match the certificate fails
 * here with the key paths and files named (OpenSSL's reason, never the file content).
 */
export function serverCredentials(
  settings: GrpcOptions,
  workingDirectory = process.cwd(),
): ServerCredentials {
  const tls = settings.Tls;
  if (!tls) return ServerCredentials.createInsecure();
  const certificate = readTlsFile('CertificateFile', tls.CertificateFile, workingDirectory);
  const privateKey = readTlsFile('PrivateKeyFile', tls.PrivateKeyFile, workingDirectory);
  const clientCa =
    tls.ClientCaFile === undefined ? null : readTlsFile('ClientCaFile', tls.ClientCaFile, workingDirectory);
  try {
    createSecureContext({ cert: certificate, key: privateKey, ...(clientCa ? { ca: clientCa } : {}) });
  } catch (error) {
    const files = [
      `CertificateFile "${path.resolve(workingDirectory, tls.CertificateFile)}"`,
      `PrivateKeyFile "${path.resolve(workingDirectory, tls.PrivateKeyFile)}"`,
      ...(tls.ClientCaFile ? [`ClientCaFile "${path.resolve(workingDirectory, tls.ClientCaFile)}"`] : []),
    ];
    throw new CoreError(
      'GRPC_TLS_INVALID',
      `${grpcSectionPath}:Tls cannot be used (${files.join(', ')}): ${(error as Error).message}`,
      { key: `${grpcSectionPath}:Tls` },
    );
  }
  return ServerCredentials.createSsl(
    clientCa,
    [{ cert_chain: certificate, private_key: privateKey }],
    tls.RequireClientCertificate,
  );
}
