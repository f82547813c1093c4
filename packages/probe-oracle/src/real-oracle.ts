/**
 * The real Oracle Database the tests use instead of the fake when ORACLE_CONNECTION_STRING is set (the one
 * variable turbo.json declares). User and password ride in it the way a URL carries them and are taken out
 * before the connect string reaches the probe: `oracle://health:secret@127.0.0.1:1521/FREEPDB1` is user
 * `health`, password `secret` and Easy Connect string `127.0.0.1:1521/FREEPDB1`.
 */
export function realOracle():
  | {
      connectString: string;
      host: string;
      port: number;
      serviceName: string;
      username: string;
      password: string;
    }
  | undefined {
  const raw = process.env.ORACLE_CONNECTION_STRING;
  if (!raw) return undefined;
  const url = new URL(raw);
  const port = Number(url.port || 1521);
  const serviceName = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return {
    connectString: `${url.hostname}:${port}/${serviceName}`,
    host: url.hostname,
    port,
    serviceName,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}
