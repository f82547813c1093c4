import {
  healthy,
  httpFailure,
  httpRequest,
  parseJsonBody,
  resolveHttpEndpoint,
  unhealthy,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import {
  consulDefaultPort,
  consulHealthEntryShape,
  validateConsulHealthEntry,
} from './consul-health-options';

function requestUrl(entry: { Endpoint?: string; Datacenter?: string }) {
  return resolveHttpEndpoint(entry.Endpoint!, {
    defaultPath: '/v1/status/leader',
    defaultPort: consulDefaultPort,
    query: { dc: entry.Datacenter },
  });
}

function label(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** The Consul probe: asks the agent for the raft leader; a non-empty leader is Healthy, an empty one Unhealthy. */
export const consulHealthProbe: ProbeDefinition<typeof consulHealthEntryShape> = {
  kind: 'Consul',
  entryShape: consulHealthEntryShape,
  validateEntry: validateConsulHealthEntry,
  describeTarget: (entry) => label(requestUrl(entry).url),
  async check(entry, context) {
    const { url } = requestUrl(entry);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (entry.AclToken) headers['x-consul-token'] = entry.AclToken;
    const response = await httpRequest({ url, headers, signal: context.signal, maxBodyBytes: 64 * 1024 });
    const request = `GET ${label(url)}`;
    if (response.status < 200 || response.status >= 300)
      return httpFailure(request, response.status, response.body, 'AclToken');
    const leader = parseJsonBody(response.body);
    if (typeof leader !== 'string') {
      return unhealthy(
        'UNEXPECTED_RESPONSE',
        `${request} did not answer a JSON string (the leader address); check that Endpoint points at a Consul agent.`,
      );
    }
    const data = { leader, ...(entry.Datacenter ? { datacenter: entry.Datacenter } : {}) };
    if (leader === '') {
      return unhealthy(
        'NO_LEADER',
        `Consul reports no cluster leader (${request} answered ""): the servers have lost quorum or are still electing.`,
        data,
      );
    }
    return healthy(`Consul leader is ${leader}`, data);
  },
};
