import { describeProbeConformance, startConsulFakeServer } from '@corekit/testing';
import { addConsulHealth } from './add-consul-health';

const realConsul = process.env.CONSUL_URL;
const realToken = process.env.CONSUL_ACL_TOKEN;

describeProbeConformance({
  kind: 'Consul',
  add: addConsulHealth,
  healthyUpstream: async () => {
    if (realConsul) {
      return { entry: { Endpoint: realConsul, ...(realToken ? { AclToken: realToken } : {}) }, secrets: realToken ? [realToken] : [], close: async () => undefined };
    }
    const server = await startConsulFakeServer({ aclToken: 'consul-acl-token-0001' });
    return { entry: { Endpoint: server.url, AclToken: 'consul-acl-token-0001' }, secrets: ['consul-acl-token-0001'], close: () => server.close() };
  },
  refusedEntry: (port) => ({ Endpoint: `http://127.0.0.1:${port}` }),
});
