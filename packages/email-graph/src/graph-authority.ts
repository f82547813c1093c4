/** The three named clouds of `AuthorityHost` (spec 4.1 DIR); anything else is an absolute https URI. */
export const authorityAliases = {
  public: 'https://login.microsoftonline.com',
  government: 'https://login.microsoftonline.us',
  china: 'https://login.chinacloudapi.cn',
} as const;

/** The replaceable token seam of the Graph transport: a bearer token for each send. */
export interface GraphTokenProvider {
  getToken(signal: AbortSignal): Promise<string>;
}

/** `public`, `government`, `china` or an absolute https URI, as the identity library's authority host. */
export function resolveAuthorityHost(value: string): string {
  return authorityAliases[value as keyof typeof authorityAliases] ?? value.replace(/\/+$/, '');
}

/** The application-permission default scope of a Graph base URL (`https://<host>/.default`). */
export function defaultGraphScope(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.protocol === 'https:' ? `https://${url.host}/.default` : 'https://graph.microsoft.com/.default';
}
