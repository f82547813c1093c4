import { describePackLifecycleConformance } from '@corekit/testing/pack-lifecycle-conformance';
import { transportLifecycleAdapter } from '@corekit/testing/transport-lifecycle-adapter';
import { createWebHost } from '@corekit/web-host';
import { addGraphQlTransport } from './index';

describePackLifecycleConformance(
  transportLifecycleAdapter(createWebHost, {
    name: 'GraphQL',
    transports: ['GraphQL'],
    setup: (builder) => void addGraphQlTransport(builder),
    async create(_host, base, text) {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          query: 'mutation Create($text: String!) { notesCreate(text: $text) { text } }',
          variables: { text },
        }),
      });
      const body = (await response.json()) as { data?: { notesCreate?: { text: string } } };
      return body.data?.notesCreate?.text ?? '';
    },
  }),
);
