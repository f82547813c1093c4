import { endpointPathSchema, maxBodyBytesSchema, servedOperationsSchema } from '@corekit/transport-kit';
import { z } from 'zod';

/** Configuration section of the JSON-RPC adapter. */
export const jsonRpcSectionPath = 'Engine:JsonRpc';

/** `Engine:JsonRpc`: where the endpoint is served and how much one request may carry. */
export const jsonRpcOptionsSchema = z.object({
  /** The exact path of the endpoint (HTTP POST only). Default `/rpc`. */
  Path: endpointPathSchema('/rpc'),
  /** Largest request body in bytes; a larger one is refused with HTTP 413 before it is parsed. Default 1 MiB. */
  MaxBodyBytes: maxBodyBytesSchema,
  /** Most calls in one batch; a larger batch is one -32600 error. Default 50, at most 1000. */
  MaxBatchSize: z.number().int().min(1).max(1000).default(50),
  /** Whether the host's authorize hook must accept each request. Default false. */
  RequireAuthorization: z.boolean().default(false),
  /**
   * The operations served as methods besides every behavior: ids or `prefix.*` (`['tenant-governance.*']`).
   * Params are `{ params, query, body }` with the parts the operation declares. Default none.
   */
  Operations: servedOperationsSchema,
});

export type JsonRpcOptions = z.output<typeof jsonRpcOptionsSchema>;
export type JsonRpcOptionsInput = z.input<typeof jsonRpcOptionsSchema>;
