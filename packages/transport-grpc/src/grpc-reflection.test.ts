import { Client, credentials, type ServiceError } from '@grpc/grpc-js';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { addGrpcTransport } from './index';
import { notesModule } from './test-support/test-host';

const hosts: WebHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** A web host serving gRPC under `environment`; answers the port. */
async function grpcPort(environment: Record<string, string>, grpc: Record<string, unknown> = {}) {
  const { builder } = createTestEngineBuilder({ configuration: { Engine: { Transports: ['Grpc'] } } });
  builder.addModule(notesModule());
  const adapter = addGrpcTransport(builder, { Port: 0, ...grpc });
  const host = createWebHost(builder, { port: 0, handleSignals: false, environment, authorize: () => false });
  hosts.push(host);
  await host.listen();
  return adapter.port()!;
}

/** One `list_services` request to grpc.reflection.v1 (field 7, an empty string): the status code, 0 when answered. */
function listServices(port: number): Promise<number> {
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve) => {
    const call = client.makeBidiStreamRequest(
      '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
      (value: Buffer) => value,
      (value: Buffer) => value,
    );
    call.on('data', () => {
      call.end();
    });
    call.on('error', (error: ServiceError) => {
      client.close();
      resolve(error.code);
    });
    call.on('end', () => {
      client.close();
      resolve(0);
    });
    call.write(Buffer.from([0x3a, 0x00]));
  });
}

describe('gRPC server reflection follows the host description exposure', () => {
  it('is served outside production, refused (UNIMPLEMENTED) under NODE_ENV=production unless Reflection is true', async () => {
    expect(await listServices(await grpcPort({}))).toBe(0);
    expect(await listServices(await grpcPort({ NODE_ENV: 'production' }))).toBe(12);
    expect(await listServices(await grpcPort({ NODE_ENV: 'production' }, { Reflection: true }))).toBe(0);
    expect(await listServices(await grpcPort({}, { Reflection: false }))).toBe(12);
  });
});
