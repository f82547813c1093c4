import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { status } from '@grpc/grpc-js';
import {
  createTestCertificateAuthority,
  type TestCertificateAuthority,
} from '@corekit/testing/servers/test-certificate-authority';
import { addGrpcTransport, type GrpcOptionsInput, type GrpcTransport } from './index';
import { behaviorClient, healthClient } from './test-support/grpc-client';
import { closeHosts, startHost } from './test-support/test-host';

afterEach(closeHosts);

let directory: string;
let server: TestCertificateAuthority;
let client: TestCertificateAuthority;
const file = (name: string) => path.join(directory, name);
/** The name in the server certificate (connecting to 127.0.0.1 by IP would make Node warn about SNI). */
const serverName = 'localhost';

beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'corekit-grpc-tls-'));
  // Two authorities: one signs the server certificate (localhost, 127.0.0.1), the other the client's.
  server = createTestCertificateAuthority({ dnsNames: ['localhost'] });
  client = createTestCertificateAuthority({
    dnsNames: ['grpc-test-client'],
    caName: 'Client Root',
    leafExtendedKeyUsage: 'clientAuth',
  });
  writeFileSync(file('server-ca.pem'), server.caCert);
  writeFileSync(file('server.pem'), server.leafCert);
  writeFileSync(file('server.key'), server.leafKeyPem);
  writeFileSync(file('client-ca.pem'), client.caCert);
  writeFileSync(file('client.key'), client.leafKeyPem);
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function tlsHost(tls: GrpcOptionsInput['Tls'], configuration: Record<string, unknown> = {}) {
  let adapter: GrpcTransport | undefined;
  const started = await startHost(
    ['Grpc'],
    (builder) => {
      adapter = addGrpcTransport(builder, { Port: 0, Tls: tls });
    },
    configuration,
  );
  return { ...started, adapter: adapter! };
}

const serverFiles = () => ({ CertificateFile: file('server.pem'), PrivateKeyFile: file('server.key') });
const surfaceOf = (host: Awaited<ReturnType<typeof tlsHost>>['host']) =>
  host.engine.technologySurfaces().find((entry) => entry.id === 'transport-grpc')!.metadata;

describe('gRPC transport over TLS', () => {
  it('serves TLS: a client trusting the CA gets answers, a plaintext client and an untrusting one do not', async () => {
    // A relative CertificateFile resolves against the working directory.
    const { adapter, host } = await tlsHost({
      CertificateFile: path.relative(process.cwd(), file('server.pem')),
      PrivateKeyFile: file('server.key'),
    });
    const port = adapter.port()!;
    const secure = behaviorClient(adapter.proto()!, port, undefined, {
      tls: { rootCertificates: server.caCert, serverName },
    });
    expect(await secure.call('NotesGet', { id: 'n1' })).toEqual({ response: { id: 'n1', text: 'hello' } });
    const health = healthClient(port, { tls: { rootCertificates: server.caCert, serverName } });
    expect((await health.call('Check', { service: '' })).response).toEqual({ status: 'SERVING' });

    const plaintext = behaviorClient(adapter.proto()!, port);
    expect((await plaintext.call('NotesGet', { id: 'n1' }, 2000)).error?.code).toBe(status.UNAVAILABLE);
    const untrusting = behaviorClient(adapter.proto()!, port, undefined, {
      tls: { rootCertificates: client.caCert, serverName },
    });
    expect((await untrusting.call('NotesGet', { id: 'n1' }, 2000)).error?.code).toBe(status.UNAVAILABLE);

    expect(surfaceOf(host)).toMatchObject({ tls: true, clientCertificate: 'none', health: 'SERVING' });
    for (const each of [secure, health, plaintext, untrusting]) each.close();
  });

  it('with RequireClientCertificate refuses a client without a certificate and serves one with a certificate', async () => {
    const { adapter, host } = await tlsHost({
      ...serverFiles(),
      ClientCaFile: file('client-ca.pem'),
      RequireClientCertificate: true,
    });
    const port = adapter.port()!;
    const anonymous = behaviorClient(adapter.proto()!, port, undefined, {
      tls: { rootCertificates: server.caCert, serverName },
    });
    expect((await anonymous.call('NotesGet', { id: 'n1' }, 2000)).error?.code).toBe(status.UNAVAILABLE);
    // A certificate the client CA did not sign (the server's own leaf) is refused too.
    const stranger = behaviorClient(adapter.proto()!, port, undefined, {
      tls: {
        serverName,
        rootCertificates: server.caCert,
        certificateChain: server.leafCert,
        privateKey: server.leafKeyPem,
      },
    });
    expect((await stranger.call('NotesGet', { id: 'n1' }, 2000)).error?.code).toBe(status.UNAVAILABLE);
    const identified = behaviorClient(adapter.proto()!, port, undefined, {
      tls: {
        serverName,
        rootCertificates: server.caCert,
        certificateChain: client.leafCert,
        privateKey: client.leafKeyPem,
      },
    });
    expect(await identified.call('NotesGet', { id: 'n1' })).toEqual({
      response: { id: 'n1', text: 'hello' },
    });
    expect(surfaceOf(host)).toMatchObject({ tls: true, clientCertificate: 'required' });
    for (const each of [anonymous, stranger, identified]) each.close();
  });

  it('fails the engine start when a certificate file cannot be read, naming the key path and the file', async () => {
    const missing = file('nope.pem');
    const { host, logger, adapter } = await tlsHost({ ...serverFiles(), CertificateFile: missing });
    expect(host.engine.state).toBe('Failed');
    const failure = host.engine.health().runtime.lastFailure!;
    expect(failure.code).toBe('GRPC_TLS_FILE_UNREADABLE');
    expect(failure.message).toContain(`Engine:Grpc:Tls:CertificateFile: cannot read "${missing}" (ENOENT)`);
    expect(logger.records.some((record) => record.eventId === 3297 && record.message.includes(missing))).toBe(
      true,
    );
    expect(adapter.port()).toBeUndefined();
  });

  it('fails the start when the key does not match the certificate, never showing the key', async () => {
    const { host, logger } = await tlsHost({ ...serverFiles(), PrivateKeyFile: file('client.key') });
    expect(host.engine.state).toBe('Failed');
    const failure = host.engine.health().runtime.lastFailure!;
    expect(failure.code).toBe('GRPC_TLS_INVALID');
    expect(failure.message).toContain(`PrivateKeyFile "${file('client.key')}"`);
    const keyBody = client.leafKeyPem.split('\n')[1]!;
    const everything = JSON.stringify([failure, logger.records]);
    expect(everything).not.toContain(keyBody);
    expect(everything).not.toContain('PRIVATE KEY');
  });

  it('a restart after the file was fixed serves TLS on the port', async () => {
    const late = file('late.pem');
    const { host, adapter } = await tlsHost(
      { ...serverFiles(), CertificateFile: late },
      { FailurePolicy: { ManualRestartBackoff: '0s' } },
    );
    expect(host.engine.state).toBe('Failed');
    writeFileSync(late, server.leafCert);
    await host.engine.restart();
    const secure = behaviorClient(adapter.proto()!, adapter.port()!, undefined, {
      tls: { rootCertificates: server.caCert, serverName },
    });
    expect((await secure.call('NotesGet', { id: 'n1' })).response).toEqual({ id: 'n1', text: 'hello' });
    secure.close();
  });

  it('refuses RequireClientCertificate without ClientCaFile, ClientCaFile alone and unknown keys', async () => {
    // Schema errors throw at registration.
    const refusal = (tls: Record<string, unknown>) =>
      startHost(['Grpc'], (builder) => {
        addGrpcTransport(builder, { Port: 0, Tls: tls as GrpcOptionsInput['Tls'] });
      }).then(
        () => 'started',
        (error: Error) => error.message,
      );
    expect(await refusal({ ...serverFiles(), RequireClientCertificate: true })).toMatch(
      /Engine:Grpc:Tls:ClientCaFile.*RequireClientCertificate: true needs ClientCaFile/s,
    );
    expect(await refusal({ ...serverFiles(), ClientCaFile: file('client-ca.pem') })).toMatch(
      /Engine:Grpc:Tls:RequireClientCertificate.*ClientCaFile is only used with RequireClientCertificate: true/s,
    );
    expect(await refusal({ CertificateFile: file('server.pem') })).toMatch(/Engine:Grpc:Tls:PrivateKeyFile/);
    // An unknown key fails the start (strict configuration) before Starting: Failed, not restartable.
    const { host, logger, adapter } = await tlsHost({
      ...serverFiles(),
      KeyPassword: 'x',
    } as GrpcOptionsInput['Tls']);
    expect(host.engine.state).toBe('Failed');
    expect(host.engine.status().lastFailure).toMatchObject({ phase: 'configuration', restartable: false });
    expect(logger.records.map((record) => record.message).join('\n')).toContain(
      '`Engine:Grpc:Tls:KeyPassword` is not a known key',
    );
    // The web host does not unmount adapters on close, and a start refused before Starting stops nothing.
    await adapter.unmount!();
  });
});
