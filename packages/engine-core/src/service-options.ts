import { z } from 'zod';

/**
 * `Engine:Service`: the service this instance belongs to. Both keys are optional: without them the name comes
 * from `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES`, else `corekit-host` (`serviceIdentityFrom`).
 */
export const serviceOptionsSchema = z.object({
  /** The service's name, shared by its replicas: `/engine/instances`, alerts and telemetry name it. */
  Name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\p{Cc}]*$/u, 'must not hold control characters')
    .optional(),
  /** The application's own version, shown beside the engine's. */
  Version: z.string().trim().min(1).max(100).optional(),
});
