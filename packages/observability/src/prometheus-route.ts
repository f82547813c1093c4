import { defineOperation, type OperationAuthorization, operationResponse } from '@corekit/abstractions';
import { z } from 'zod';
import type { OpenTelemetryOptions } from './open-telemetry-options';

/** The Prometheus text exposition format, version 0.0.4. */
export const prometheusContentType = 'text/plain; version=0.0.4; charset=utf-8';

/** How the section's `Exposure` maps onto the pack contract's operation authorization. */
export function prometheusAuthorization(
  exposure: OpenTelemetryOptions['Prometheus']['Exposure'],
): OperationAuthorization {
  if (exposure === 'Open') return { mode: 'anonymous' };
  if (exposure === 'RequireAuthorization') return { mode: 'required' };
  return { mode: 'operator' };
}

/**
 * The metrics route as a pack operation: `GET <Path>` answers the Prometheus text format, read from the SDK's
 * Prometheus reader at each scrape. Served while the host drains (a last scrape sees the final counts) and
 * described in the API reference like every other operation.
 */
export function prometheusOperation(
  settings: OpenTelemetryOptions['Prometheus'],
  scrape: () => Promise<string>,
) {
  return defineOperation({
    id: 'observability.prometheus-metrics',
    method: 'GET',
    path: settings.Path,
    summary: 'OpenTelemetry metrics in the Prometheus text format (engine, packs, HTTP server)',
    tags: ['Observability'],
    result: z.string().describe('Prometheus text exposition format 0.0.4'),
    authorization: prometheusAuthorization(settings.Exposure),
    servedWhileDraining: true,
    owner: 'observability',
    handler: async () => operationResponse(200, await scrape(), { contentType: prometheusContentType }),
  });
}
