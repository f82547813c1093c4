import { resolveAuthorityHost, type GraphTokenProvider } from './graph-authority';

/** An app registration's client-secret grant (OAuth 2.0 client credentials on the identity platform v2.0). */
export interface ClientCredentialsGrant {
  /** `public`, `government`, `china` or the identity platform's base URI. */
  readonly AuthorityHost: string;
  /** The directory (tenant) id or one of its domain names. */
  readonly TenantId: string;
  /** The application (client) id. */
  readonly ClientId: string;
  /** The client secret: sent in the token request body only, never logged. */
  readonly ClientSecret: string;
  /** Application-permission scopes (`https://graph.microsoft.com/.default`). */
  readonly Scopes: readonly string[];
}

/** A refused or unreadable token answer: `status` is the HTTP status; the message names no secret. */
export class ClientCredentialsTokenError extends Error {
  override readonly name = 'ClientCredentialsTokenError';
  constructor(
    readonly status: number,
    readonly error: string,
  ) {
    super(`the token endpoint answered ${status} ${error}`);
  }
}

/** The token endpoint of a grant: `{AuthorityHost}/{TenantId}/oauth2/v2.0/token`. */
export function tokenEndpointOf(grant: Pick<ClientCredentialsGrant, 'AuthorityHost' | 'TenantId'>): string {
  return `${resolveAuthorityHost(grant.AuthorityHost)}/${encodeURIComponent(grant.TenantId)}/oauth2/v2.0/token`;
}

/**
 * Tokens by the client credentials grant with a client secret: the request `ClientSecretCredential` makes
 * (form fields `client_id`, `client_secret`, `scope`, `grant_type=client_credentials`), made directly, without the
 * identity library's authority discovery. A token is kept until five minutes before `expires_in` ends; a
 * refusal (`invalid_client`...) or an answer without `access_token` throws `ClientCredentialsTokenError`.
 */
export function clientCredentialsTokenProvider(
  grant: ClientCredentialsGrant,
  now: () => number = Date.now,
): GraphTokenProvider {
  let cached: { token: string; expiresAt: number } | null = null;
  return {
    async getToken(signal) {
      if (cached && cached.expiresAt - 300_000 > now()) return cached.token;
      const response = await fetch(tokenEndpointOf(grant), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          client_id: grant.ClientId,
          client_secret: grant.ClientSecret,
          scope: grant.Scopes.join(' '),
          grant_type: 'client_credentials',
        }),
        signal,
      });
      const answer = (await response.json().catch(() => null)) as {
        access_token?: unknown;
        expires_in?: unknown;
        error?: unknown;
      } | null;
      if (!response.ok || typeof answer?.access_token !== 'string' || !answer.access_token) {
        const error = typeof answer?.error === 'string' ? answer.error.slice(0, 100) : 'no access_token';
        throw new ClientCredentialsTokenError(response.status, error);
      }
      const lifetimeSeconds = Number(answer.expires_in);
      cached = {
        token: answer.access_token,
        expiresAt: now() + (Number.isFinite(lifetimeSeconds) ? lifetimeSeconds : 0) * 1000,
      };
      return cached.token;
    },
  };
}
