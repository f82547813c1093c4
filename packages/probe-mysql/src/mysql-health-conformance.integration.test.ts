import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { requireService } from '@corekit/testing/require-service';
import { startMariaDbServer, type MariaDbServerProcess } from '@corekit/testing/servers/mariadb-server';
import { addMySqlHealth } from './add-mysql-health';
import type { MySqlHealthOptions } from './mysql-health-options';

const mySqlUrl = process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const add = (builder: Parameters<typeof addMySqlHealth>[0], options: unknown) =>
  addMySqlHealth(builder, options as MySqlHealthOptions);

describe('against the MariaDB server on this machine', () => {
  describeProbeConformance({
    kind: 'MySql',
    add,
    healthyUpstream: async () => {
      if (!(await requireService('MySQL/MariaDB', mySqlUrl, 'MYSQL_URL'))) {
        throw new Error(
          `MySQL/MariaDB is not reachable at ${new URL(mySqlUrl).host}; start it or set MYSQL_URL`,
        );
      }
      return { entry: { ConnectionString: mySqlUrl }, close: async () => undefined };
    },
    refusedEntry: (port) => ({ Host: '127.0.0.1', Port: port, Username: 'root' }),
  });
});

describe('against a private MariaDB server with a password-protected account', () => {
  const password = 'conformance-Maria-pw-6Hn';
  let server: MariaDbServerProcess | undefined;
  afterAll(() => server?.close());

  describeProbeConformance({
    kind: 'MySql',
    add,
    healthyUpstream: async () => {
      server ??= await startMariaDbServer({ users: { probe: password } });
      return {
        entry: {
          Host: server.host,
          Port: server.port,
          Username: 'probe',
          Password: password,
          Database: 'test',
        },
        secrets: [password],
        close: async () => undefined,
      };
    },
    refusedEntry: (port) => ({ Host: '127.0.0.1', Port: port, Username: 'probe' }),
  });
});
