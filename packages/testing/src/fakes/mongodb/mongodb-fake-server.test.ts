import { MongoClient, type MongoClientOptions } from 'mongodb';
import { startMongoDbFakeServer, type MongoDbFakeServer } from './mongodb-fake-server';

const clientOptions: MongoClientOptions = {
  directConnection: true,
  maxPoolSize: 1,
  serverSelectionTimeoutMS: 3000,
  connectTimeoutMS: 3000,
};

async function runCommand(url: string, database: string, command: Record<string, unknown>) {
  const client = new MongoClient(url, clientOptions);
  try {
    return await client.db(database).command(command);
  } finally {
    await client.close();
  }
}

function credentialsUrl(fake: MongoDbFakeServer, username: string, password: string, authSource = 'admin') {
  return `mongodb://${encodeURIComponent(username)}:${encodeURIComponent(password)}@${fake.host}:${fake.port}/?authSource=${authSource}`;
}

describe('fake MongoDB server with the mongodb driver', () => {
  let fake: MongoDbFakeServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('completes the legacy handshake and answers ping on the selected database over OP_MSG', async () => {
    fake = await startMongoDbFakeServer();
    await expect(runCommand(fake.url, 'inventory', { ping: 1 })).resolves.toEqual({ ok: 1 });
    const [handshake] = fake.commands;
    expect(handshake).toMatchObject({ opCode: 'OP_QUERY', database: 'admin', commandName: 'ismaster' });
    expect(handshake.command.helloOk).toBe(true);
    const ping = fake.commands.find((command) => command.commandName === 'ping');
    expect(ping).toMatchObject({ opCode: 'OP_MSG', database: 'inventory' });
    // endSessions is sent without waiting for a reply (moreToCome) just before the driver closes its sockets.
    const sawEndSessions = () => fake?.commands.some((command) => command.commandName === 'endSessions');
    for (let attempt = 0; attempt < 100 && !sawEndSessions(); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const endSessions = fake.commands.find((command) => command.commandName === 'endSessions');
    expect(endSessions).toMatchObject({ opCode: 'OP_MSG', database: 'admin' });
  });

  it('authenticates SCRAM-SHA-256 speculatively in the handshake', async () => {
    fake = await startMongoDbFakeServer({ users: { probe: 'correct horse' } });
    await expect(
      runCommand(credentialsUrl(fake, 'probe', 'correct horse'), 'app', { ping: 1 }),
    ).resolves.toEqual({ ok: 1 });
    const handshake = fake.commands.find((command) => command.command.speculativeAuthenticate);
    expect(handshake).toMatchObject({ saslUsername: 'probe' });
    expect(handshake?.command.saslSupportedMechs).toBe('admin.probe');
    const continued = fake.commands.filter((command) => command.commandName === 'saslContinue');
    expect(continued).toHaveLength(1);
    expect(JSON.stringify(fake.commands)).not.toContain('correct horse');
  });

  it('authenticates through explicit saslStart and saslContinue when speculation is not answered', async () => {
    fake = await startMongoDbFakeServer({
      users: { probe: 'correct horse' },
      speculativeAuthentication: false,
    });
    await expect(
      runCommand(credentialsUrl(fake, 'probe', 'correct horse'), 'app', { ping: 1 }),
    ).resolves.toEqual({ ok: 1 });
    const started = fake.commands.find((command) => command.commandName === 'saslStart');
    expect(started).toMatchObject({ database: 'admin', saslUsername: 'probe' });
    expect(started?.command.mechanism).toBe('SCRAM-SHA-256');
  });

  it.each([
    ['a wrong password', 'probe', 'wrong', 'admin'],
    ['an unknown user', 'intruder', 'correct horse', 'admin'],
    ['a user looked up in the wrong database', 'probe', 'correct horse', 'sales'],
  ])('refuses %s with code 18 AuthenticationFailed', async (_case, username, password, authSource) => {
    fake = await startMongoDbFakeServer({ users: { probe: 'correct horse' } });
    await expect(
      runCommand(credentialsUrl(fake, username, password, authSource), 'app', { ping: 1 }),
    ).rejects.toMatchObject({
      name: 'MongoServerError',
      code: 18,
      codeName: 'AuthenticationFailed',
      message: 'Authentication failed.',
    });
    expect(fake.commands.some((command) => command.commandName === 'ping')).toBe(false);
  });

  it('answers an unknown command with code 59 CommandNotFound', async () => {
    fake = await startMongoDbFakeServer();
    await expect(runCommand(fake.url, 'app', { frobnicate: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
      message: "no such command: 'frobnicate'",
    });
  });

  it('refuses a command that needs authentication on an unauthenticated connection with code 13', async () => {
    fake = await startMongoDbFakeServer({
      users: { probe: 'correct horse' },
      commands: { dbStats: () => ({ db: 'app', ok: 1 }) },
    });
    await expect(runCommand(fake.url, 'app', { dbStats: 1 })).rejects.toMatchObject({
      code: 13,
      codeName: 'Unauthorized',
    });
    await expect(
      runCommand(credentialsUrl(fake, 'probe', 'correct horse'), 'app', { dbStats: 1 }),
    ).resolves.toEqual({
      db: 'app',
      ok: 1,
    });
  });

  it('destroys every open socket on close', async () => {
    fake = await startMongoDbFakeServer();
    const client = new MongoClient(fake.url, clientOptions);
    await client.connect();
    expect(fake.openConnections).toBeGreaterThan(0);
    await fake.close();
    expect(fake.openConnections).toBe(0);
    await client.close();
    fake = undefined;
  });
});
