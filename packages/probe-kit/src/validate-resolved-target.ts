/**
 * Registration-time rules of a probe whose target comes from a ConnectionString or from Host: one of them
 * is required (`example` is a connection string to show), and the resolved target must name a host and a
 * port between 1 and 65535. `resolve` answers undefined after reporting its own issue (a wrong scheme); an
 * error it throws (an unreadable connection string) becomes a ConnectionString issue without the text.
 */
export function validateResolvedTarget(
  entry: { readonly ConnectionString?: string | undefined; readonly Host?: string | undefined },
  example: string,
  issue: (field: string, message: string) => void,
  resolve: () => { readonly host: string; readonly port: number } | undefined,
): void {
  if (!entry.ConnectionString && !entry.Host) {
    issue('Host', `is required when ConnectionString is not set: give ConnectionString (${example}) or Host`);
    return;
  }
  try {
    const target = resolve();
    if (!target) return;
    if (!target.host) issue('ConnectionString', 'names no host; add one or set Host');
    if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535)
      issue('ConnectionString', 'holds a port that is not a number between 1 and 65535');
  } catch (error) {
    issue(
      'ConnectionString',
      (error as Error).message.replace(/^The connection string /, '').replace(/\.$/, ''),
    );
  }
}
