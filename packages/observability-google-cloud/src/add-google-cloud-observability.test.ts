import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { addOpenTelemetry } from '@corekit/observability';
import {
  describeObservabilityPackConformance,
  startOtlpPlatformReceiver,
} from '@corekit/testing/observability-pack-conformance';
import { startGceMetadataServer, type GceMetadataServer } from '@corekit/testing/servers/gce-metadata-server';
import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addGoogleCloudObservability } from './add-google-cloud-observability';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const serviceAccount = 'telemetry-writer@corekit-tests.iam.gserviceaccount.com';
const instance = {
  projectId: 'corekit-tests',
  numericProjectId: '123456789012',
  instanceId: '4520031799277581759',
  hostname: 'host-1.c.corekit-tests.internal',
  machineType: 'e2-medium',
  zone: 'europe-west1-b',
};

// The GCP detector asks the metadata server gcp-metadata finds through GCE_METADATA_HOST: a local fake.
let metadata: GceMetadataServer;
const previousHost = process.env.GCE_METADATA_HOST;
beforeAll(async () => {
  metadata = await startGceMetadataServer(instance);
  process.env.GCE_METADATA_HOST = metadata.host;
});
afterAll(async () => {
  if (previousHost === undefined) delete process.env.GCE_METADATA_HOST;
  else process.env.GCE_METADATA_HOST = previousHost;
  await metadata.close();
});

/** The claims of a JWT after checking its RS256 signature with the service account's public key. */
function verifiedClaims(token: string): Record<string, unknown> {
  const [header, payload, signature] = token.split('.');
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })),
    Buffer.from(signature!, 'base64url'),
  );
  expect(valid).toBe(true);
  return JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describeObservabilityPackConformance({
  platform: 'Google Cloud',
  eventId: 3113,
  section: 'Engine:Observability:GoogleCloud',
  startReceiver: () => startOtlpPlatformReceiver(),
  options: (receiver) => ({
    Endpoint: receiver.endpoint,
    ProjectId: 'corekit-tests',
    ServiceAccountEmail: serviceAccount,
    ServiceAccountPrivateKey: privateKeyPem,
  }),
  register: addGoogleCloudObservability,
  addOpenTelemetry,
  secret: privateKeyPem.split('\n')[5]!,
  secretKey: 'ServiceAccountPrivateKey',
  expectCredentials: (headers) => {
    expect(headers['x-goog-user-project']).toBe('corekit-tests');
    const authorization = String(headers.authorization);
    expect(authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = verifiedClaims(authorization.slice('Bearer '.length));
    expect(claims).toMatchObject({ iss: serviceAccount, sub: serviceAccount });
    expect(String(claims.scope)).toContain('https://www.googleapis.com/auth/cloud-platform');
  },
  temporality: 'cumulative',
  resource: {
    'gcp.project_id': 'corekit-tests',
    'cloud.provider': 'gcp',
    'cloud.platform': 'gcp_compute_engine',
    'cloud.availability_zone': 'europe-west1-b',
    'host.id': instance.instanceId,
  },
  misspelled: { key: 'ProjectId', typo: 'ProjectID2', value: 'x' },
});

describe('addGoogleCloudObservability', () => {
  it('refuses a service account email without its key', () => {
    const { builder } = createTestEngineBuilder();
    expect(() =>
      addGoogleCloudObservability(builder, {
        ProjectId: 'corekit-tests',
        ServiceAccountEmail: serviceAccount,
      }),
    ).toThrow(
      'ServiceAccountEmail and Engine:Observability:GoogleCloud:ServiceAccountPrivateKey go together',
    );
  });
});
