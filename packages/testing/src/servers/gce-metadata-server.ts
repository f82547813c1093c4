import { startHttpFakeServer, type RecordedHttpRequest } from '../http-fake-server';

/** What the fake Compute Engine instance reports. */
export interface GceInstance {
  readonly projectId: string;
  readonly numericProjectId: string;
  readonly instanceId: string;
  readonly hostname: string;
  readonly machineType: string;
  /** `us-central1-a`. */
  readonly zone: string;
}

export interface GceMetadataServer {
  /** `127.0.0.1:<port>`: the value of `GCE_METADATA_HOST` that points `gcp-metadata` here. */
  readonly host: string;
  readonly requests: RecordedHttpRequest[];
  close(): Promise<void>;
}

/**
 * A fake Compute Engine metadata server on 127.0.0.1, as Google documents it: `GET /computeMetadata/v1/...`
 * answered only with the `Metadata-Flavor: Google` request header, each answer carrying that header too;
 * values as text, unknown paths 404 (so the instance is neither GKE nor App Engine).
 */
export async function startGceMetadataServer(instance: GceInstance): Promise<GceMetadataServer> {
  const values: Record<string, string> = {
    'instance/id': instance.instanceId,
    'instance/hostname': instance.hostname,
    'instance/name': instance.hostname.split('.')[0] ?? instance.hostname,
    'instance/machine-type': `projects/${instance.numericProjectId}/machineTypes/${instance.machineType}`,
    'instance/zone': `projects/${instance.numericProjectId}/zones/${instance.zone}`,
    'project/project-id': instance.projectId,
    'project/numeric-project-id': instance.numericProjectId,
  };
  const flavor = { 'metadata-flavor': 'Google', 'content-type': 'application/text' };
  const server = await startHttpFakeServer((request) => {
    if (request.headers['metadata-flavor'] !== 'Google')
      return { status: 403, body: 'Missing Metadata-Flavor' };
    const path = request.path.replace(/^\/computeMetadata\/v1\/?/, '').replace(/\/$/, '');
    if (path === 'instance' || path === '')
      return { status: 200, headers: flavor, body: 'attributes/\nid\nzone\n' };
    const value = values[path];
    return value === undefined
      ? { status: 404, headers: flavor, body: 'Not Found' }
      : { status: 200, headers: flavor, body: value };
  });
  return {
    host: `127.0.0.1:${server.port}`,
    requests: server.requests as RecordedHttpRequest[],
    close: () => server.close(),
  };
}
