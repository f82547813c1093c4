/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, one space, no other
 * parameters), or null for anything else: a bare token, another scheme (`Basic`), an empty token.
 */
export function bearerToken(headers: Readonly<Record<string, string | string[] | undefined>>): string | null {
  const header = headers.authorization;
  if (typeof header !== 'string') return null;
  return /^Bearer ([\x21-\x7e]+)$/i.exec(header)?.[1] ?? null;
}
