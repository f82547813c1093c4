import { healthy, httpRequest, unhealthy, type ProbeDefinition } from '@corekit/probe-kit';
import { httpHealthEntryShape, validateHttpHealthEntry } from './http-health-options';

function target(endpoint: string): string {
  const url = new URL(endpoint.trim());
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The generic HTTP probe: one request on a dedicated connection, judged by its status code. */
export const httpHealthProbe: ProbeDefinition<typeof httpHealthEntryShape> = {
  kind: 'Http',
  entryShape: httpHealthEntryShape,
  validateEntry: validateHttpHealthEntry,
  describeTarget: (entry) => target(entry.Endpoint!),
  async check(entry, context) {
    const endpoint = entry.Endpoint!.trim();
    const response = await httpRequest({
      url: endpoint,
      method: entry.Method,
      signal: context.signal,
      maxBodyBytes: 64 * 1024,
    });
    const expected = entry.ExpectedStatusCodes;
    const ok =
      expected && expected.length > 0
        ? expected.includes(response.status)
        : response.status >= 200 && response.status < 300;
    const data = { statusCode: response.status };
    const request = `${entry.Method} ${target(endpoint)}`;
    if (ok) return healthy(`${request} answered ${response.status}`, data);
    const wanted = expected && expected.length > 0 ? expected.join(', ') : 'any 2xx';
    return unhealthy(
      'UNEXPECTED_STATUS',
      `${request} answered ${response.status}, expected ${wanted}. Check the service, or list the status in ExpectedStatusCodes.`,
      data,
    );
  },
};
