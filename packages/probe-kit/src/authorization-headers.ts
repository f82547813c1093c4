/** Credentials an HTTP-speaking probe can send; the first one present wins, in this order. */
export interface HttpCredentials {
  /** Elasticsearch-style API key, sent as `Authorization: ApiKey <key>` (the encoded id:key form). */
  readonly apiKey?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
  /** With `password`, sent as HTTP basic credentials. */
  readonly username?: string;
  readonly password?: string;
}

/** `Basic base64(username:password)`. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** `Bearer <token>`. */
export function bearerAuthorization(token: string): string {
  return `Bearer ${token}`;
}

/** `ApiKey <key>` as Elasticsearch and OpenSearch expect it. */
export function apiKeyAuthorization(apiKey: string): string {
  return `ApiKey ${apiKey}`;
}

/** The `Authorization` header for the first credential present (API key, bearer token, basic), or `{}`. */
export function authorizationHeaders(credentials: HttpCredentials): Record<string, string> {
  if (credentials.apiKey) return { authorization: apiKeyAuthorization(credentials.apiKey) };
  if (credentials.bearerToken) return { authorization: bearerAuthorization(credentials.bearerToken) };
  if (credentials.username !== undefined && credentials.username !== '') {
    return { authorization: basicAuthorization(credentials.username, credentials.password ?? '') };
  }
  return {};
}
