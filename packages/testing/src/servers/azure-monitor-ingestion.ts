import { gunzipSync } from 'node:zlib';
import { startHttpFakeServer, type RecordedHttpRequest } from '../http-fake-server';
import type { PlatformReceivedData, PlatformReceiver } from '../observability-pack-conformance';
import { createTestCertificateAuthority } from './test-certificate-authority';

/**
 * One Application Insights telemetry item as the ingestion ("Breeze") track API takes it: an envelope
 * with the item type in `name`, the context in `tags` (`ai.cloud.role` is the service, `ai.operation.id`
 * the trace id) and the payload in `data.baseData` of `data.baseType`.
 */
export interface AzureMonitorEnvelope {
  readonly name: string;
  readonly iKey?: string;
  readonly time?: string;
  readonly tags?: Readonly<Record<string, string>>;
  readonly data?: { readonly baseType?: string; readonly baseData?: Record<string, any> };
}

export interface AzureMonitorIngestion extends PlatformReceiver {
  /** The `IngestionEndpoint` of a connection string pointing here (`https://127.0.0.1:<port>/`). */
  readonly ingestionEndpoint: string;
  /** PEM of the test CA that signed the server's certificate: the exporter must trust it. */
  readonly certificateAuthority: string;
  /** Every envelope received, oldest first. */
  readonly envelopes: AzureMonitorEnvelope[];
  /** Requests that were not a track call (wrong path, body not a JSON array), answered 404 or 400. */
  readonly rejected: RecordedHttpRequest[];
  /** A connection string for `instrumentationKey` with this server as its ingestion endpoint. */
  connectionString(instrumentationKey: string): string;
}

const spanTypes = new Set(['RequestData', 'RemoteDependencyData']);

function resourceOf(envelope: AzureMonitorEnvelope): Record<string, unknown> {
  const tags = envelope.tags ?? {};
  return {
    ...(tags['ai.cloud.role'] !== undefined ? { 'service.name': tags['ai.cloud.role'] } : {}),
    ...(tags['ai.cloud.roleInstance'] !== undefined
      ? { 'service.instance.id': tags['ai.cloud.roleInstance'] }
      : {}),
  };
}

/** Spans and metrics in the suite's model: span attributes are the envelope's custom properties. */
function receivedFrom(envelopes: readonly AzureMonitorEnvelope[], headers: PlatformReceivedData['headers']) {
  const spans = envelopes
    .filter((envelope) => spanTypes.has(envelope.data?.baseType ?? ''))
    .map((envelope) => ({
      name: String(envelope.data?.baseData?.name ?? ''),
      traceId: String(envelope.tags?.['ai.operation.id'] ?? ''),
      attributes: { ...(envelope.data?.baseData?.properties ?? {}) },
      resource: resourceOf(envelope),
    }));
  const metrics = envelopes
    .filter((envelope) => envelope.data?.baseType === 'MetricData')
    .flatMap((envelope) =>
      ((envelope.data?.baseData?.metrics ?? []) as Array<{ name: string }>).map((metric) => ({
        name: metric.name,
        temporality: 'unspecified' as const,
        resource: resourceOf(envelope),
      })),
    );
  return { spans, metrics, headers };
}

/**
 * A fake Azure Monitor ingestion endpoint on 127.0.0.1 speaking the track API the Azure Monitor exporters
 * use: `POST /v2.1/track` with a JSON array of envelopes (gzip or not), answered with the track response
 * (`itemsReceived`, `itemsAccepted`, `errors`). HTTPS only, as the exporters rewrite any ingestion endpoint
 * to https: the certificate comes from a fresh test CA (`certificateAuthority`).
 */
export async function startAzureMonitorIngestion(): Promise<AzureMonitorIngestion> {
  const envelopes: AzureMonitorEnvelope[] = [];
  const rejected: RecordedHttpRequest[] = [];
  const accepted: RecordedHttpRequest[] = [];
  let failure: number | undefined;
  const authority = createTestCertificateAuthority({ dnsNames: ['localhost'] });
  const server = await startHttpFakeServer(
    (request) => {
      if (request.method !== 'POST' || request.path !== '/v2.1/track') {
        rejected.push(request);
        return { status: 404, body: { error: 'not a track call' } };
      }
      let items: unknown;
      try {
        const gzip = String(request.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
        items = JSON.parse((gzip ? gunzipSync(request.bytes) : request.bytes).toString('utf8'));
      } catch {
        items = undefined;
      }
      if (!Array.isArray(items)) {
        rejected.push(request);
        return { status: 400, body: { itemsReceived: 0, itemsAccepted: 0, errors: [] } };
      }
      accepted.push(request);
      envelopes.push(...(items as AzureMonitorEnvelope[]));
      if (failure !== undefined)
        return { status: failure, body: { itemsReceived: items.length, itemsAccepted: 0, errors: [] } };
      return { status: 200, body: { itemsReceived: items.length, itemsAccepted: items.length, errors: [] } };
    },
    { tls: { cert: authority.leafCert, key: authority.leafKeyPem } },
  );
  return {
    ingestionEndpoint: `${server.url}/`,
    certificateAuthority: authority.caCert,
    envelopes,
    rejected,
    connectionString: (instrumentationKey) =>
      `InstrumentationKey=${instrumentationKey};IngestionEndpoint=${server.url}/`,
    received: () =>
      receivedFrom(
        envelopes,
        accepted.map((request) => request.headers),
      ),
    failWith(status) {
      failure = status;
    },
    close: () => server.close(),
  };
}
