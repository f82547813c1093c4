import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { probeSectionSchema, resolveHttpEndpoint, type ProbeOptions } from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:Consul:Dependencies:<n>` entry, besides the common ones. */
export const consulHealthEntryShape = {
  /**
   * Consul HTTP API address: `http://consul:8500`, `https://consul.example.com`, or `consul:8500`
   * (http, port 8500 when omitted). A bare base URL resolves to `GET /v1/status/leader`; a URL with a path
   * is requested as is. Required.
   */
  Endpoint: z
    .string()
    .optional()
    .describe('Consul HTTP API address; a bare base URL resolves to /v1/status/leader'),
  /** ACL token, sent in the `X-Consul-Token` header. Optional; supply it from the environment. */
  AclToken: secretString('Consul ACL token, sent in the X-Consul-Token header').optional(),
  /** Datacenter to ask, sent as the `dc` query parameter. Omitted: the agent's own datacenter. */
  Datacenter: z.string().min(1).optional().describe('datacenter, sent as the dc query parameter'),
};

/** Code options of addConsulHealth, in the configuration's shape. */
export type ConsulHealthOptions = ProbeOptions<typeof consulHealthEntryShape>;

/** Consul's HTTP port when the endpoint names none. */
export const consulDefaultPort = 8500;

export function validateConsulHealthEntry(
  entry: { Endpoint?: string },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.Endpoint) {
    issue('Endpoint', 'is required: the Consul HTTP API address, for example http://consul:8500');
    return;
  }
  try {
    resolveHttpEndpoint(entry.Endpoint, { defaultPort: consulDefaultPort });
  } catch {
    issue('Endpoint', 'must be an http(s) URL or host:port, for example http://consul:8500');
  }
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Consul` section. */
export const consulHealthOptionsSchema = probeSectionSchema({
  entryShape: consulHealthEntryShape,
  validateEntry: validateConsulHealthEntry,
});
