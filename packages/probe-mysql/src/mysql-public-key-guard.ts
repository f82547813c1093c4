import mysql from 'mysql2';
import { CoreError } from '@corekit/abstractions';

type PluginFactory = (
  options: Record<string, unknown>,
) => (context: { connection: unknown; command: unknown }) => (data: Buffer) => unknown;

/** mysql2's built-in auth plugins (exported at runtime, not in its typings). */
const builtInPlugins = (mysql as unknown as { authPlugins: Record<string, PluginFactory> }).authPlugins;

/** What each plugin sends to ask the server for its RSA public key. */
const keyRequests: Record<string, Buffer> = {
  caching_sha2_password: Buffer.from([2]),
  sha256_password: Buffer.from([1]),
};

/**
 * Auth plugins that behave like mysql2's own, except that asking the server for its RSA public key (to send
 * the password over a plain connection) fails with PUBLIC_KEY_RETRIEVAL_NOT_ALLOWED instead. `onRefused`
 * runs first, because mysql2 replaces the error code of a failing plugin with its own.
 */
export function publicKeyRetrievalGuard(entryPath: string, onRefused: () => void): Record<string, unknown> {
  const guarded: Record<string, unknown> = {};
  for (const [name, request] of Object.entries(keyRequests)) {
    guarded[name] = (context: { connection: unknown; command: unknown }) => {
      const inner = builtInPlugins[name]({})(context);
      return (data: Buffer) => {
        const reply = inner(data);
        if (Buffer.isBuffer(reply) && reply.equals(request)) {
          onRefused();
          // mysql2 catches this and fails the handshake with it
          throw new CoreError(
            'PUBLIC_KEY_RETRIEVAL_NOT_ALLOWED',
            `The server wants to send its RSA public key to receive the password (${name} over a plain connection), and ${entryPath}:AllowPublicKeyRetrieval is false. Use SslMode Required or stronger, or set AllowPublicKeyRetrieval to true if the network path is trusted.`,
          );
        }
        return reply;
      };
    };
  }
  return guarded;
}
