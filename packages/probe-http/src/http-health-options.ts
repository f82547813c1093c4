import { z } from 'zod';
import { integerListField, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';

/** Methods the probe may send. All are sent without a body: a probe never writes to the upstream. */
export const httpHealthMethods = ['GET', 'HEAD', 'OPTIONS', 'POST'] as const;

/** Fields of one `Engine:Observability:DependencyHealth:Http:Dependencies:<n>` entry, besides the common ones. */
export const httpHealthEntryShape = {
  /**
   * Absolute http(s) URL to request (`http://orders:8080/health`). Credentials in the URL
   * (`https://user:password@host/`) are sent as basic authentication and redacted from every output.
   * Required.
   */
  Endpoint: z.string().optional().describe('absolute http(s) URL to request; required'),
  /** HTTP method, case-insensitive; default GET. POST is sent with an empty body. */
  Method: z.enum(httpHealthMethods).default('GET').describe('HTTP method; default GET'),
  /**
   * Status codes that count as Healthy (array or comma-separated). Omitted: any 2xx is Healthy. Redirects
   * are not followed, so a 3xx is Unhealthy unless listed here.
   */
  ExpectedStatusCodes: integerListField(
    'status codes that count as Healthy; omitted means any 2xx',
  ).optional(),
};

/** Code options of addHttpHealth, in the configuration's shape. */
export type HttpHealthOptions = ProbeOptions<typeof httpHealthEntryShape>;

/** Validates an endpoint and the status codes; shared by the schema and the probe definition. */
export function validateHttpHealthEntry(
  entry: { Endpoint?: string; ExpectedStatusCodes?: number[] },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.Endpoint) {
    issue('Endpoint', 'is required: the absolute URL to request, for example http://orders:8080/health');
  } else if (!/^https?:\/\/[^/]/i.test(entry.Endpoint.trim()) || !URL.canParse(entry.Endpoint.trim())) {
    issue('Endpoint', 'must be an absolute http or https URL, for example http://orders:8080/health');
  }
  entry.ExpectedStatusCodes?.forEach((code, index) => {
    if (code < 100 || code > 599)
      issue(`ExpectedStatusCodes:${index}`, `must be an HTTP status code (100-599), got ${code}`);
  });
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Http` section. */
export const httpHealthOptionsSchema = probeSectionSchema({
  entryShape: httpHealthEntryShape,
  validateEntry: validateHttpHealthEntry,
});
