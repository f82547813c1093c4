import { servedOperationsSchema } from '@corekit/transport-kit';
import { z } from 'zod';

export const grpcSectionPath = 'Engine:Grpc';

/**
 * `Engine:Grpc:Tls`: serve TLS instead of plaintext. Paths are PEM files, absolute or relative to the process
 * working directory, read when the server binds (a file that cannot be read fails the engine start).
 */
export const grpcTlsOptionsSchema = z
  .object({
    /** The server certificate (chain), PEM. Required. */
    CertificateFile: z.string().min(1),
    /** The certificate's private key, PEM. Required; its content is never logged. */
    PrivateKeyFile: z.string().min(1),
    /** The CA (PEM) that signs the client certificates; used with RequireClientCertificate. No default. */
    ClientCaFile: z.string().min(1).optional(),
    /** Refuse clients without a certificate signed by ClientCaFile (mutual TLS). Default false. */
    RequireClientCertificate: z.boolean().default(false),
  })
  .superRefine((tls, context) => {
    if (tls.RequireClientCertificate && tls.ClientCaFile === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['ClientCaFile'],
        message:
          'RequireClientCertificate: true needs ClientCaFile (the CA that signs the client certificates)',
      });
    }
    if (!tls.RequireClientCertificate && tls.ClientCaFile !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['RequireClientCertificate'],
        message:
          'ClientCaFile is only used with RequireClientCertificate: true (@grpc/grpc-js either requires and verifies a client certificate or never asks for one); set it to true or remove ClientCaFile',
      });
    }
  });

/** `Engine:Grpc`: the adapter's own server (it does not share the web host's port). */
export const grpcOptionsSchema = z.object({
  /** TCP port of the gRPC server; 0 picks a free one (tests). Default 50051. */
  Port: z.number().int().min(0).max(65535).default(50051),
  /** Address to bind. Default `0.0.0.0`. */
  BindAddress: z.string().min(1).default('0.0.0.0'),
  /** Protobuf package of the generated service. Default `corekit.behaviors`. */
  Package: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, 'a dotted protobuf package name')
    .default('corekit.behaviors'),
  /** Name of the generated service. Default `Behaviors`. */
  Service: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a protobuf identifier')
    .default('Behaviors'),
  /** Largest request message in bytes (RESOURCE_EXHAUSTED beyond). Default 4 MiB. */
  MaxReceiveMessageBytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  /**
   * Whether server reflection (grpc.reflection.v1 and v1alpha) is served. Unset (the default): served unless the
   * host guards its descriptions (the web host under NODE_ENV=production); true or false decide alone.
   */
  Reflection: z.boolean().optional(),
  /** How long shutdown waits for in-flight calls before cancelling them, in ms. Default 5000. */
  ShutdownTimeoutMs: z.number().int().min(0).max(300_000).default(5000),
  /** TLS for the server; absent: plaintext. */
  Tls: grpcTlsOptionsSchema.optional(),
  /**
   * The operations served as rpcs besides every behavior: ids or `prefix.*` (`['eventing.publish']`). The
   * request message has the fields `params`, `query` and `body` the operation declares. Default none.
   */
  Operations: servedOperationsSchema,
});

export type GrpcOptions = z.output<typeof grpcOptionsSchema>;
export type GrpcOptionsInput = z.input<typeof grpcOptionsSchema>;
export type GrpcTlsOptions = z.output<typeof grpcTlsOptionsSchema>;

export const grpcEventIds = {
  /** The server is listening. */
  listening: 3292,
  /** A call failed with an unexpected error (answered INTERNAL; the message is never sent). */
  callFailed: 3293,
  /** The server could not bind its port. */
  bindFailed: 3294,
  /** The health status served changed. */
  healthChanged: 3295,
  /** The server stopped. */
  stopped: 3296,
  /** The TLS files cannot be read or used (the engine start fails). */
  tlsUnusable: 3297,
} as const;

export const grpcEventIdRange: readonly [number, number] = [3292, 3297];

export const grpcEventIdNames: Readonly<Record<number, string>> = {
  [grpcEventIds.listening]: 'grpc-listening',
  [grpcEventIds.callFailed]: 'grpc-call-failed',
  [grpcEventIds.bindFailed]: 'grpc-bind-failed',
  [grpcEventIds.healthChanged]: 'grpc-health-changed',
  [grpcEventIds.stopped]: 'grpc-stopped',
  [grpcEventIds.tlsUnusable]: 'grpc-tls-unusable',
};
