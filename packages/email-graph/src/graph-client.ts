import { Client, HTTPMessageHandler, ResponseType } from '@microsoft/microsoft-graph-client';
import type { GraphMailClient } from './graph-transport';

/**
 * The default client: `@microsoft/microsoft-graph-client` with only its HTTP handler (no retry or redirect
 * middleware: retries belong to the governance retry queue) and the bearer token set on each request, so
 * national-cloud base URLs get it too. Reads the raw response for the status, `request-id` and `Retry-After`.
 */
export function graphSdkClient(baseUrl: string, apiVersion: string): GraphMailClient {
  const client = Client.initWithMiddleware({
    middleware: new HTTPMessageHandler(),
    baseUrl: `${baseUrl.replace(/\/+$/, '')}/`,
    defaultVersion: apiVersion,
  });
  return {
    async sendMail(request) {
      const response = (await client
        .api(request.path)
        .version(apiVersion)
        .header('Authorization', `Bearer ${request.token}`)
        .header('client-request-id', request.clientRequestId)
        .options({ signal: request.signal })
        .responseType(ResponseType.RAW)
        .post(request.body)) as Response;
      await response.body?.cancel();
      return {
        status: response.status,
        requestId: response.headers.get('request-id'),
        retryAfter: response.headers.get('retry-after'),
      };
    },
  };
}
