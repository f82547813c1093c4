import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger } from '@corekit/testing/capture-logger';
import {
  startMySqlCachingSha2Fake,
  type MySqlCachingSha2Fake,
} from '@corekit/testing/servers/mysql-caching-sha2-fake';
import { addMySqlHealth } from './add-mysql-health';
import type { MySqlHealthOptions } from './mysql-health-options';

const contentRoot = mkdtempSync(path.join(os.tmpdir(), 'probe-mysql-key-'));

async function probeOnce(options: MySqlHealthOptions) {
  const logger = captureLogger();
  const builder = createEngineBuilder({ contentRoot, environment: {}, logger });
  addMySqlHealth(builder, options);
  const engine = builder.build();
  await engine.refreshDependencies();
  return { entry: engine.dependencies()[0], logger };
}

describe('AllowPublicKeyRetrieval (caching_sha2_password fake of a MySQL 8 server without TLS)', () => {
  const password = 'sha2-Password-1x';
  let fake: MySqlCachingSha2Fake;
  beforeEach(async () => {
    fake = await startMySqlCachingSha2Fake({ user: 'probe', password });
  });
  afterEach(() => fake.close());

  it('refuses to ask for the server key by default: Unhealthy with PUBLIC_KEY_RETRIEVAL_NOT_ALLOWED, nothing requested', async () => {
    const { entry, logger } = await probeOnce({
      Dependencies: [{ Id: 'db', Host: fake.host, Port: fake.port, Username: 'probe', Password: password }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('PUBLIC_KEY_RETRIEVAL_NOT_ALLOWED');
    expect(entry.error?.message).toContain(
      'Engine:Observability:DependencyHealth:MySql:Dependencies:0:AllowPublicKeyRetrieval is false',
    );
    expect(fake.publicKeyRequests).toBe(0);
    expect(fake.authenticatedLogins).toBe(0);
    expect(JSON.stringify([entry, logger.records])).not.toContain(password);
  });

  it('with AllowPublicKeyRetrieval true, fetches the key, sends the password encrypted with it, and runs the query', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'db',
          ConnectionString: `Server=${fake.host};Port=${fake.port};User Id=probe;Password=${password};AllowPublicKeyRetrieval=true`,
        },
      ],
    });
    expect(entry).toMatchObject({
      status: 'Healthy',
      data: { serverVersion: '8.0.36-corekit-fake', tls: false },
    });
    expect(fake.publicKeyRequests).toBe(1);
    expect(fake.authenticatedLogins).toBe(1);
    expect(fake.queries).toEqual(['SELECT 1']);
  });

  it('with AllowPublicKeyRetrieval true and a wrong password, is Unhealthy with AUTHENTICATION_FAILED', async () => {
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'db',
          Host: fake.host,
          Port: fake.port,
          Username: 'probe',
          Password: 'wrong',
          AllowPublicKeyRetrieval: true,
        },
      ],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(fake.publicKeyRequests).toBe(1);
  });
});
