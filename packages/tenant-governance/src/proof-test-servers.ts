import https from 'node:https';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import {
  createTestCertificateAuthority,
  type TestCertificateAuthority,
} from '@corekit/testing/servers/test-certificate-authority';

/** One answer of the local file server; `chunked` streams the body without a content-length. */
export type FileAnswer = { status: number; body?: string; location?: string; chunked?: boolean };

function listen(server: https.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

/**
 * A local HTTPS DNS-over-HTTPS server (`/dns-query`: RFC 8484 GET and POST; `/resolve`: the JSON API) answering
 * TXT records from `txt`, and a local HTTPS file server answering per host from `fileOverrides`, else from
 * `proofFile` (the verifier's own proof state). Both use a leaf of a test CA for `dnsNames`. Tests only.
 */
export async function startProofServers(dnsNames: readonly string[]) {
  const certificates: TestCertificateAuthority = createTestCertificateAuthority({
    caName: 'Governance Test CA',
    dnsNames,
  });
  const txt = new Map<string, string[]>();
  const fileOverrides = new Map<string, (path: string) => FileAnswer>();
  const dohRequests: string[] = [];
  const state: { proofFile?: (path: string) => Promise<{ body: string } | undefined> } = {};
  const tls = { key: certificates.leafKeyPem, cert: certificates.leafCert };
  const doh = https.createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url!, 'https://localhost');
      if (url.pathname === '/resolve') {
        dohRequests.push('json');
        const name = url.searchParams.get('name')!;
        const records = txt.get(name);
        response.setHeader('content-type', 'application/dns-json');
        // Split each value in two quoted segments, as the JSON API presents long TXT strings.
        const data = (value: string) => `"${value.slice(0, 30)}" "${value.slice(30)}"`;
        response.end(
          JSON.stringify({
            Status: records ? 0 : 3,
            Answer: (records ?? []).map((value) => ({ name, type: 16, TTL: 60, data: data(value) })),
          }),
        );
        return;
      }
      const post = request.method === 'POST';
      const wire = post ? Buffer.concat(chunks) : Buffer.from(url.searchParams.get('dns')!, 'base64url');
      dohRequests.push(post ? 'wire-post' : 'wire');
      const query = dnsPacket.decode(wire);
      const name = query.questions![0].name;
      const records = txt.get(name);
      response.setHeader('content-type', 'application/dns-message');
      response.end(
        dnsPacket.encode({
          type: 'response',
          id: query.id,
          flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (records ? 0 : 3),
          questions: query.questions,
          answers: (records ?? []).map((value) => ({ type: 'TXT' as const, name, ttl: 60, data: [value] })),
        }),
      );
    });
  });
  const fileRequests: string[] = [];
  const files = https.createServer(tls, (request, response) => {
    fileRequests.push(`${request.headers.host!.split(':')[0]}${request.url}`);
    const override = fileOverrides.get(request.headers.host!.split(':')[0]);
    if (override) {
      const answer = override(request.url!);
      response.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      if (answer.chunked && answer.body) {
        for (let at = 0; at < answer.body.length; at += 512) response.write(answer.body.slice(at, at + 512));
        response.end();
      } else {
        response.end(answer.body ?? '');
      }
      return;
    }
    void state.proofFile!(request.url!).then((file) => {
      response.writeHead(file ? 200 : 404, { 'content-type': 'text/plain' });
      response.end(file?.body ?? 'not found');
    });
  });
  const dohPort = await listen(doh);
  const filePort = await listen(files);
  return {
    certificates,
    txt,
    fileOverrides,
    dohRequests,
    /** `<host><path>` of every request the file server received. */
    fileRequests,
    dohPort,
    filePort,
    serveProofsFrom(source: (path: string) => Promise<{ body: string } | undefined>) {
      state.proofFile = source;
    },
    async close() {
      doh.closeAllConnections();
      files.closeAllConnections();
      await new Promise((resolve) => doh.close(resolve));
      await new Promise((resolve) => files.close(resolve));
    },
  };
}
