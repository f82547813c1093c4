import { createTestEngineBuilder } from '@corekit/testing/test-engine-builder';
import { addRabbitMqHealth } from './add-rabbitmq-health';
import { resolveRabbitMqTarget } from './rabbitmq-health-options';

describe('resolveRabbitMqTarget', () => {
  it('defaults to port 5672, virtual host "/" and guest/guest', () => {
    expect(resolveRabbitMqTarget({ Host: 'rabbit' })).toEqual({
      host: 'rabbit',
      port: 5672,
      virtualHost: '/',
      username: 'guest',
      password: 'guest',
      useTls: false,
      hostField: 'Host',
    });
  });

  it('uses port 5671 with UseTls', () => {
    expect(resolveRabbitMqTarget({ Host: 'rabbit', UseTls: true })).toMatchObject({
      port: 5671,
      useTls: true,
    });
  });

  it.each([
    [
      'amqp://app:s3cret@rabbit:5673/orders',
      {
        host: 'rabbit',
        port: 5673,
        virtualHost: 'orders',
        username: 'app',
        password: 's3cret',
        useTls: false,
      },
    ],
    ['amqps://app:s3cret@rabbit/orders', { port: 5671, useTls: true }],
    ['amqp://rabbit/%2F', { virtualHost: '/', username: 'guest', password: 'guest' }],
    ['amqp://rabbit/', { virtualHost: '/' }],
    ['amqp://rabbit', { virtualHost: '/' }],
    ['amqp://rabbit/team%2Fa%20b', { virtualHost: 'team/a b' }],
    ['amqp://app:p%40ss@rabbit', { username: 'app', password: 'p@ss' }],
    ['amqp://app@rabbit', { username: 'app', password: '' }],
    [
      'Host=rabbit;Port=5673;VirtualHost=orders;Username=app;Password=s3cret;UseTls=true',
      {
        host: 'rabbit',
        port: 5673,
        virtualHost: 'orders',
        username: 'app',
        password: 's3cret',
        useTls: true,
      },
    ],
  ])('reads %s', (connectionString, expected) => {
    expect(resolveRabbitMqTarget({ ConnectionString: connectionString })).toMatchObject({
      ...expected,
      hostField: 'ConnectionString',
    });
  });

  it('lets the separate fields win over the connection string', () => {
    expect(
      resolveRabbitMqTarget({
        ConnectionString: 'amqps://app:old@rabbit:5673/orders',
        Host: 'other',
        Port: 1234,
        VirtualHost: 'billing',
        Username: 'svc',
        Password: 'new',
        UseTls: false,
      }),
    ).toEqual({
      host: 'other',
      port: 1234,
      virtualHost: 'billing',
      username: 'svc',
      password: 'new',
      useTls: false,
      hostField: 'Host',
    });
  });
});

describe('addRabbitMqHealth configuration', () => {
  const builder = () => createTestEngineBuilder().builder;

  it.each([
    [{ Id: 'broker' }, 'Dependencies:0:Host is required when ConnectionString is not set'],
    [
      { Id: 'broker', ConnectionString: 'http://rabbit:15672' },
      'Dependencies:0:ConnectionString must be an amqp:// or amqps:// URI, got the scheme "http"',
    ],
    [{ Id: 'broker', ConnectionString: 'Port=5672' }, 'Dependencies:0:ConnectionString names no host'],
    [
      { Id: 'broker', ConnectionString: 'Host=rabbit;Port=x' },
      'Dependencies:0:ConnectionString holds a port that is not a number',
    ],
    [{ Id: 'broker', ConnectionString: 'Host="rabbit' }, 'Dependencies:0:ConnectionString is not valid'],
    [
      { Id: 'broker', Host: 'rabbit', Password: '<RABBITMQ_PASSWORD>' },
      'Dependencies:0:Password still holds the placeholder',
    ],
  ])('rejects %j at registration, naming the full key path', (dependency, message) => {
    expect(() => addRabbitMqHealth(builder(), { Dependencies: [dependency] })).toThrow(
      expect.objectContaining({
        code: 'CONFIGURATION_INVALID',
        message: expect.stringContaining(`Engine:Observability:DependencyHealth:RabbitMq:${message}`),
      }),
    );
  });

  it('never repeats a connection string password in a registration error', () => {
    let message = '';
    try {
      addRabbitMqHealth(builder(), {
        Dependencies: [{ Id: 'broker', ConnectionString: 'ftp://app:very-secret-77@rabbit' }],
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('ConnectionString');
    expect(message).not.toContain('very-secret-77');
  });
});
