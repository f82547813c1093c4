import { startConsulFakeServer } from '@corekit/testing/fakes/consul/consul-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addConsulHealth } from './add-consul-health';

// CONSUL_URL runs the suite against a real agent; with ACLs on, pass the token as `?token=` in the URL
// (Consul accepts it there; the probe treats it as a secret).
const realConsul = process.env.CONSUL_URL;

describeProbeConformance({
  kind: 'Consul',
  add: addConsulHealth,
  healthyUpstream: async () => {
    if (realConsul) {
      const token = new URL(realConsul).searchParams.get('token');
      return { entry: { Endpoint: realConsul }, secrets: token ? [token] : [], close: async () => undefined };
    }
    const server = await startConsulFakeServer({ aclToken: 'consul-acl-token-0001' });
    return {
      entry: { Endpoint: server.url, AclToken: 'consul-acl-token-0001' },
      secrets: ['consul-acl-token-0001'],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ Endpoint: `http://127.0.0.1:${port}` }),
});
