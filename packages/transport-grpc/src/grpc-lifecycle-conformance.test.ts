import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { transportLifecycleAdapter } from '@corekit/testing/transport-lifecycle-adapter';
import { createWebHost } from '@corekit/web-host';
import { addGrpcTransport, type GrpcTransport } from './index';
import { behaviorClient } from './test-support/grpc-client';

// The suite builds its engines one after the other: the adapter of the engine it drives is the latest.
let latest: GrpcTransport | undefined;

describePackLifecycleConformance(
  transportLifecycleAdapter(createWebHost, {
    name: 'gRPC',
    transports: ['Grpc'],
    setup: (builder) => {
      latest = addGrpcTransport(builder, { Port: 0 });
    },
    async create(_host, _base, text) {
      const port = latest?.port();
      const proto = latest?.proto();
      if (port === undefined || !proto) return '';
      const client = behaviorClient(proto, port);
      try {
        const answer = await client.call('NotesCreate', { text }, 2000);
        return (answer.response as { text?: string } | undefined)?.text ?? '';
      } finally {
        client.close();
      }
    },
  }),
);
