import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { transportLifecycleAdapter } from '@corekit/testing/transport-lifecycle-adapter';
import { createWebHost } from '@corekit/web-host';
import { addJsonRpcTransport } from './index';

describePackLifecycleConformance(
  transportLifecycleAdapter(createWebHost, {
    name: 'JSON-RPC',
    transports: ['JsonRpc'],
    setup: (builder) => void addJsonRpcTransport(builder),
    async create(_host, base, text) {
      const response = await fetch(`${base}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'notes.create', params: { text } }),
      });
      const body = (await response.json()) as { result?: { text: string } };
      return body.result?.text ?? '';
    },
  }),
);
