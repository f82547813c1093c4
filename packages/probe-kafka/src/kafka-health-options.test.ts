import { probeEventIds } from '@corekit/abstractions';
import { itRefusesEachEntry, itRefusesPlaceholderPassword } from '@corekit/testing/configuration-refusals';
import { probeRegistration } from '@corekit/testing/probe-registration';
import { addKafkaHealth } from './add-kafka-health';

const entryPath = 'Engine:Observability:DependencyHealth:Kafka:Dependencies:0';

const { register, configurationError } = probeRegistration(addKafkaHealth, 'kafka');

describe('Kafka probe configuration', () => {
  it('registers one contributor with the Kafka event ids, BootstrapServers as a comma list', () => {
    const added = register({ BootstrapServers: 'kafka-1:9092, kafka-2', TimeoutSeconds: 3 });
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      id: 'kafka',
      kind: 'Kafka',
      timeoutSeconds: 3,
      eventIds: probeEventIds.Kafka,
    });
  });

  it('reads the section from environment variables', () => {
    const added = register(null, {
      Engine__Observability__DependencyHealth__Kafka__Dependencies__0__Id: 'from-env',
      Engine__Observability__DependencyHealth__Kafka__Dependencies__0__BootstrapServers: 'kafka:9092',
      Engine__Observability__DependencyHealth__Kafka__Dependencies__0__SecurityProtocol: 'sasl_ssl',
      Engine__Observability__DependencyHealth__Kafka__Dependencies__0__Username: 'probe',
      Engine__Observability__DependencyHealth__Kafka__Dependencies__0__Password: 'from-the-environment',
    });
    expect(added.map((contributor) => contributor.id)).toEqual(['from-env']);
  });

  itRefusesEachEntry(
    configurationError,
    entryPath,
    [
      [{}, 'BootstrapServers', /is required/],
      [{ BootstrapServers: 'http://kafka:9092' }, 'BootstrapServers:0', /host:port/],
      [
        { BootstrapServers: 'kafka:9092', SecurityProtocol: 'TLS' },
        'SecurityProtocol',
        /PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL/,
      ],
      [
        { BootstrapServers: 'kafka:9092', SecurityProtocol: 'SASL_SSL', Password: 'p4ss-word' },
        'Username',
        /required with SecurityProtocol SASL_SSL/,
      ],
      [
        { BootstrapServers: 'kafka:9092', SecurityProtocol: 'SASL_PLAINTEXT', Username: 'probe' },
        'Password',
        /required/,
      ],
      [
        { BootstrapServers: 'kafka:9092', Username: 'probe', Password: 'p4ss-word' },
        'SecurityProtocol',
        /SASL_PLAINTEXT or SASL_SSL/,
      ],
      [
        {
          BootstrapServers: 'kafka:9092',
          SecurityProtocol: 'SASL_SSL',
          SaslMechanism: 'GSSAPI',
          Username: 'probe',
          Password: 'p4ss-word',
        },
        'SaslMechanism',
        /PLAIN, SCRAM-SHA-256, SCRAM-SHA-512/,
      ],
      [{ BootstrapServers: 'kafka:9092', TimeoutSeconds: -1 }, 'TimeoutSeconds', /positive integer/],
    ],
    ['p4ss-word'],
  );

  itRefusesPlaceholderPassword(configurationError, entryPath, {
    BootstrapServers: 'kafka:9092',
    SecurityProtocol: 'SASL_SSL',
    Username: 'probe',
    Password: '<SECRET>',
  });
});
