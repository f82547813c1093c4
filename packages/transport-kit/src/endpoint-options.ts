import { z } from 'zod';

/**
 * The `Path` option of a transport served on the web host: an absolute path of letters, digits and
 * `/ _ . -`, with `defaultPath` when absent. It cannot tell whether another route already owns the path.
 */
export function endpointPathSchema(defaultPath: string) {
  return z
    .string()
    .regex(/^\/[A-Za-z0-9/_.-]*$/, 'a path starting with "/"')
    .default(defaultPath);
}

/** The `MaxBodyBytes` option (for `readBoundedBody`): 1 KiB to 64 MiB, default 1 MiB. */
export const maxBodyBytesSchema = z
  .number()
  .int()
  .min(1024)
  .max(64 * 1024 * 1024)
  .default(1024 * 1024);
