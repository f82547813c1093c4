import {
  startNeo4jFakeServer,
  type Neo4jFakeServer,
  type Neo4jFakeServerOptions,
} from '@corekit/testing/fakes/neo4j/neo4j-fake-server';
import { blackHoleServer } from '@corekit/testing/network-helpers';
import { pollUntil } from '@corekit/testing/poll-until';
import { transitionEventIds } from '@corekit/testing/probe-restart';
import { probeRunner } from '@corekit/testing/probe-runner';
import { addNeo4jHealth } from './add-neo4j-health';
import { realNeo4j } from './real-neo4j';
import type { Neo4jHealthOptions } from './neo4j-health-options';

// Behaviour tests. By default they run the real neo4j-driver against the Bolt fake of @corekit/testing (and
// also assert what reached its wire). With NEO4J_URI set they run against that server instead, asserting only
// what a real server shows; see real-neo4j.ts for the variable's form.
const entryPath = 'Engine:Observability:DependencyHealth:Neo4j:Dependencies:0';
const fakePassword = 'neo4j-probe-password-31';

interface Upstream {
  readonly fake?: Neo4jFakeServer;
  readonly uri: string;
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  /** A database that exists on the upstream besides the default one. */
  readonly database: string;
  close(): Promise<void>;
}

async function startUpstream(options: Neo4jFakeServerOptions = {}): Promise<Upstream> {
  const real = realNeo4j();
  if (real) {
    const url = new URL(real.uri);
    return { ...real, host: url.hostname, port: Number(url.port || 7687), close: async () => undefined };
  }
  const fake = await startNeo4jFakeServer({
    credentials: { username: 'neo4j', password: fakePassword },
    databases: ['neo4j', 'system', 'movies'],
    ...options,
  });
  return {
    fake,
    uri: fake.uri,
    host: fake.host,
    port: fake.port,
    username: 'neo4j',
    password: fakePassword,
    database: 'movies',
    close: () => fake.close(),
  };
}

const { probeOnce, engineWith } = probeRunner<Neo4jHealthOptions>(addNeo4jHealth);

describe('addNeo4jHealth', () => {
  let upstream: Upstream;
  afterEach(async () => {
    await upstream?.close();
  });

  it('runs HealthQuery in a read-access session and reports the server agent and database', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [
        { Id: 'graph', Uri: upstream.uri, Username: upstream.username, Password: upstream.password },
      ],
    });
    expect(entry).toMatchObject({ status: 'Healthy', kind: 'Neo4j', error: null });
    expect(entry.data).toMatchObject({
      server: expect.stringMatching(/^Neo4j\//),
      database: expect.any(String),
      records: 1,
    });
    if (upstream.fake) {
      expect(upstream.fake.received.runs).toEqual([{ query: 'RETURN 1', database: null, mode: 'r' }]);
      expect(upstream.fake.received.principals).toEqual(['neo4j']);
    }
  });

  it('selects the configured Database: it reaches the wire in RUN and the result names it', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'graph',
          Uri: upstream.uri,
          Username: upstream.username,
          Password: upstream.password,
          Database: upstream.database,
        },
      ],
    });
    expect(entry.status).toBe('Healthy');
    expect(entry.data).toMatchObject({
      database: upstream.database,
      target: expect.stringContaining(`/${upstream.database}`),
    });
    if (upstream.fake)
      expect(upstream.fake.received.runs.map((run) => run.database)).toEqual([upstream.database]);
  });

  it('builds neo4j://Host:Port from the fields and asks the routing table for the Database before running the query', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'graph',
          Host: upstream.host,
          Port: upstream.port,
          Scheme: 'neo4j',
          Username: upstream.username,
          Password: upstream.password,
          Database: upstream.database,
        },
      ],
    });
    expect(entry.status).toBe('Healthy');
    expect(entry.data).toMatchObject({
      target: `neo4j://${upstream.host}:${upstream.port}/${upstream.database}`,
      database: upstream.database,
    });
    if (upstream.fake) {
      expect(upstream.fake.received.routes).toEqual([{ database: upstream.database }]);
      expect(upstream.fake.received.runs).toEqual([
        { query: 'RETURN 1', database: upstream.database, mode: 'r' },
      ]);
    }
  });

  it('is Unhealthy with AUTHENTICATION_FAILED and the server reason when the credentials are refused, never showing the password', async () => {
    upstream = await startUpstream();
    const wrong = 'definitely-not-the-password-93';
    const { entry, engine, logger } = await probeOnce({
      Dependencies: [{ Id: 'graph', Uri: upstream.uri, Username: upstream.username, Password: wrong }],
    });
    expect(entry.status).toBe('Unhealthy');
    expect(entry.error?.code).toBe('AUTHENTICATION_FAILED');
    expect(entry.error?.message).toContain('Neo.ClientError.Security.Unauthorized');
    expect(entry.error?.message).toContain(`${entryPath}:Password`);
    expect(JSON.stringify([engine.dependencies(), engine.snapshot(), logger.records])).not.toContain(wrong);
  });

  it('is Unhealthy with DATABASE_NOT_FOUND naming the Database key for a database the server does not have', async () => {
    upstream = await startUpstream();
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'graph',
          Uri: upstream.uri,
          Username: upstream.username,
          Password: upstream.password,
          Database: 'nosuchgraph',
        },
      ],
    });
    expect(entry.error).toEqual({
      code: 'DATABASE_NOT_FOUND',
      message: expect.stringContaining(`${entryPath}:Database`),
    });
    expect(entry.error?.message).toContain('Neo.ClientError.Database.DatabaseNotFound');
  });

  it('is Unhealthy with QUERY_FAILED when the server rejects HealthQuery', async () => {
    upstream = await startUpstream({
      queryFailure: { code: 'Neo.ClientError.Statement.SyntaxError', message: "Invalid input 'RETRUN'" },
    });
    const { entry } = await probeOnce({
      Dependencies: [
        {
          Id: 'graph',
          Uri: upstream.uri,
          Username: upstream.username,
          Password: upstream.password,
          HealthQuery: 'RETRUN 1',
        },
      ],
    });
    expect(entry.error).toEqual({
      code: 'QUERY_FAILED',
      message: expect.stringContaining('Neo.ClientError.Statement.SyntaxError'),
    });
    expect(entry.error?.message).toContain(`${entryPath}:HealthQuery`);
    if (upstream.fake) expect(upstream.fake.received.runs.map((run) => run.query)).toEqual(['RETRUN 1']);
  });
});

describe('addNeo4jHealth against local servers', () => {
  it('logs the graph database event ids (3148 healthy, 3149 unhealthy) on status changes', async () => {
    const fake = await startNeo4jFakeServer();
    const { engine, logger } = engineWith({ Dependencies: [{ Id: 'graph', Uri: fake.uri }] });
    await engine.refreshDependencies();
    await fake.close();
    await engine.refreshDependencies();
    expect(transitionEventIds(logger, 3148, 3149)).toEqual([3148, 3149]);
  });
  it('logs on with the Bolt none scheme when Username is not set', async () => {
    const fake = await startNeo4jFakeServer();
    try {
      const { entry } = await probeOnce({ Dependencies: [{ Id: 'graph', Uri: fake.uri }] });
      expect(entry.status).toBe('Healthy');
      expect(fake.received.principals).toEqual([null]);
    } finally {
      await fake.close();
    }
  });

  it('is Unhealthy when a +s scheme meets a server that does not speak TLS', async () => {
    const fake = await startNeo4jFakeServer();
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'graph', Uri: `bolt+ssc://127.0.0.1:${fake.port}`, TimeoutSeconds: 2 }],
      });
      expect(entry.status).toBe('Unhealthy');
      expect(entry.timedOut).toBe(false);
      expect(fake.received.messages).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('destroys a connection still in its TLS handshake when the run times out', async () => {
    const hole = await blackHoleServer();
    try {
      const { entry } = await probeOnce({
        Dependencies: [{ Id: 'graph', Uri: `neo4j+ssc://127.0.0.1:${hole.port}`, TimeoutSeconds: 1 }],
      });
      expect(entry).toMatchObject({ status: 'Unhealthy', timedOut: true });
      expect(hole.acceptedConnections).toBe(1);
      const open = await pollUntil(
        async () => hole.openConnections,
        (count) => count === 0,
        { timeoutMs: 2000, intervalMs: 20 },
      );
      expect(open).toBe(0);
    } finally {
      await hole.close();
    }
  });
});
