import { probeEventIds } from '@corekit/abstractions';
import { itRefusesEachEntry, itRefusesPlaceholderPassword } from '@corekit/testing/configuration-refusals';
import { probeRegistration } from '@corekit/testing/probe-registration';
import { addCassandraHealth } from './add-cassandra-health';

const entryPath = 'Engine:Observability:DependencyHealth:Cassandra:Dependencies:0';

const { register, configurationError } = probeRegistration(addCassandraHealth, 'cassandra');

describe('Cassandra probe configuration', () => {
  it('registers one contributor with the Cassandra event ids, ContactPoints as a comma list', () => {
    const added = register({ ContactPoints: 'cassandra-1, cassandra-2:9142', TimeoutSeconds: 3 });
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      id: 'cassandra',
      kind: 'Cassandra',
      timeoutSeconds: 3,
      eventIds: probeEventIds.Cassandra,
    });
  });

  it('reads the section from environment variables, ContactPoints as an array', () => {
    const added = register(null, {
      Engine__Observability__DependencyHealth__Cassandra__Dependencies__0__Id: 'from-env',
      Engine__Observability__DependencyHealth__Cassandra__Dependencies__0__ContactPoints__0: 'cassandra-1',
      Engine__Observability__DependencyHealth__Cassandra__Dependencies__0__ContactPoints__1: '[::1]:9042',
      Engine__Observability__DependencyHealth__Cassandra__Dependencies__0__Port: '9142',
    });
    expect(added.map((contributor) => contributor.id)).toEqual(['from-env']);
  });

  itRefusesEachEntry(
    configurationError,
    entryPath,
    [
      [{}, 'ContactPoints', /is required/],
      [{ ContactPoints: 'cassandra-1,http://cassandra-2' }, 'ContactPoints:1', /host or host:port/],
      [{ ContactPoints: 'cassandra-1', Port: 0 }, 'Port', /port number/],
      [{ ContactPoints: 'cassandra-1', Password: 'p4ss-word' }, 'Username', /required when Password is set/],
      [{ ContactPoints: 'cassandra-1', Username: 'probe' }, 'Password', /required when Username is set/],
      [
        { ContactPoints: 'cassandra-1', HealthQuery: "INSERT INTO ks.t (k) VALUES ('x')" },
        'HealthQuery',
        /SELECT/,
      ],
      [{ ContactPoints: 'cassandra-1', HealthQuery: '' }, 'HealthQuery', /non-empty/],
      [{ ContactPoints: 'cassandra-1', Required: 'sometimes' }, 'Required', /true or false/],
    ],
    ['p4ss-word'],
  );

  itRefusesPlaceholderPassword(configurationError, entryPath, {
    ContactPoints: 'cassandra-1',
    Username: 'probe',
    Password: '<CASSANDRA_PASSWORD>',
  });
});
