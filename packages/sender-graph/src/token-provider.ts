import type { Logger } from '@corekit/abstractions';
import {
  ChainedTokenCredential,
  EnvironmentCredential,
  InteractiveBrowserCredential,
  ManagedIdentityCredential,
  WorkloadIdentityCredential,
  type AccessToken,
  type TokenCredential,
} from '@azure/identity';
import type { AzureIdentityOptions } from './graph-options';
import { resolveAuthorityHost, type GraphTokenProvider } from '@corekit/email-graph';

// The token seam and the authority helpers are the Graph transport's (@corekit/email-graph); reached here too.
export { defaultGraphScope, resolveAuthorityHost } from '@corekit/email-graph';
export type { GraphTokenProvider } from '@corekit/email-graph';

/** Event ids of token acquisition (spec 6: 4574 acquired, 4575 failed). */
export const graphTokenEventIds = { acquired: 4574, failed: 4575 } as const;

/** The credential the AzureIdentity section describes: environment, workload identity, managed identity, browser. */
export function identityCredential(options: AzureIdentityOptions): TokenCredential {
  const common = {
    authorityHost: resolveAuthorityHost(options.AuthorityHost),
    ...(options.TenantId ? { tenantId: options.TenantId } : {}),
  };
  const chain: TokenCredential[] = [new EnvironmentCredential(common)];
  if (process.env.AZURE_FEDERATED_TOKEN_FILE) chain.push(new WorkloadIdentityCredential(common));
  if (!options.ExcludeManagedIdentityCredential)
    chain.push(
      options.ManagedIdentityClientId
        ? new ManagedIdentityCredential({ clientId: options.ManagedIdentityClientId })
        : new ManagedIdentityCredential(),
    );
  if (!options.ExcludeInteractiveBrowserCredential) chain.push(new InteractiveBrowserCredential(common));
  return new ChainedTokenCredential(...chain);
}

/**
 * A token provider over a credential: caches the token until five minutes before expiry and logs 4574
 * (credential type, scope count, expiry) on each acquisition and 4575 (credential type, scope count, failure
 * reason: the error's name) on failure. Never logs the token or the error message.
 */
export function credentialTokenProvider(
  credential: TokenCredential,
  scopes: readonly string[],
  logger: Logger,
  category: string,
  now: () => number = Date.now,
): GraphTokenProvider {
  const credentialType = credential.constructor?.name || 'TokenCredential';
  let cached: AccessToken | null = null;
  return {
    async getToken(signal) {
      if (cached && cached.expiresOnTimestamp - 300_000 > now()) return cached.token;
      try {
        const token = await credential.getToken([...scopes], { abortSignal: signal });
        if (!token) throw Object.assign(new Error('no token'), { name: 'CredentialUnavailableError' });
        cached = token;
        logger.log({
          level: 'info',
          eventId: graphTokenEventIds.acquired,
          category,
          message: `Graph token acquired (credential ${credentialType}, ${scopes.length} scope(s), expires ${new Date(token.expiresOnTimestamp).toISOString()})`,
          credentialType,
          scopeCount: scopes.length,
          expiresOnUtc: new Date(token.expiresOnTimestamp).toISOString(),
        });
        return token.token;
      } catch (error) {
        const reason = (error as { name?: string } | null)?.name || 'Error';
        logger.log({
          level: 'warn',
          eventId: graphTokenEventIds.failed,
          category,
          message: `Graph token acquisition failed (credential ${credentialType}, ${scopes.length} scope(s), reason ${reason})`,
          credentialType,
          scopeCount: scopes.length,
          reason,
        });
        throw error;
      }
    },
  };
}
