/**
 * A fake Consul agent HTTP API, as documented at developer.hashicorp.com/consul/api-docs. It answers:
 * - `GET /v1/status/leader` (optional `?dc=`): 200 with the leader's address as a JSON string
 *   (`"10.1.10.12:8300"`), or `""` when the cluster has no leader;
 * - `GET /v1/status/peers`: 200 with the raft peers as a JSON array;
 * - an unknown `dc`: 500 `No path to datacenter`;
 * - when `aclToken` is set, a request without the token (`X-Consul-Token` or `Authorization: Bearer`): 403
 *   `Permission denied`, with a wrong token: 403 `ACL not found` (Consul's answers for ACL default-deny);
 * - anything else: 404.
 */
import { startHttpFakeServer, type FakeHttpServer } from '../../http-fake-server';

export interface ConsulFakeOptions {
  /** Leader address; `''` simulates a cluster without a leader. Default `10.1.10.12:8300`. */
  leader?: string;
  /** When set, every request must carry this token. */
  aclToken?: string;
  /** Datacenters known to the agent; the first is the local one. Default `['dc1']`. */
  datacenters?: string[];
}

export interface ConsulFakeServer extends FakeHttpServer {
  /** Changes the answers of later requests. */
  readonly options: ConsulFakeOptions;
}

export async function startConsulFakeServer(initial: ConsulFakeOptions = {}): Promise<ConsulFakeServer> {
  const options: ConsulFakeOptions = { leader: '10.1.10.12:8300', datacenters: ['dc1'], ...initial };
  const text = (status: number, body: string) => ({
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body,
  });
  const server = await startHttpFakeServer((request) => {
    if (options.aclToken !== undefined) {
      const bearer =
        typeof request.headers.authorization === 'string'
          ? request.headers.authorization.replace(/^bearer\s+/i, '')
          : undefined;
      const token =
        (request.headers['x-consul-token'] as string | undefined) ?? request.query.token ?? bearer;
      if (token === undefined || token === '') return text(403, 'Permission denied');
      if (token !== options.aclToken) return text(403, 'ACL not found');
    }
    const datacenter = request.query.dc;
    if (datacenter !== undefined && !(options.datacenters ?? []).includes(datacenter))
      return text(500, 'No path to datacenter');
    const headers = { 'x-consul-effective-consistency': 'leader', 'content-type': 'application/json' };
    if (request.method === 'GET' && request.path === '/v1/status/leader')
      return { status: 200, headers, body: JSON.stringify(options.leader ?? '') };
    if (request.method === 'GET' && request.path === '/v1/status/peers') {
      return { status: 200, headers, body: JSON.stringify(options.leader ? [options.leader] : []) };
    }
    return text(404, '');
  });
  return Object.assign(server, { options });
}
