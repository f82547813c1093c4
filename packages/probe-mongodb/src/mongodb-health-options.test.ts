import { probeEventIds } from '@corekit/abstractions';
import { itRefusesEachEntry, itRefusesPlaceholderPassword } from '@corekit/testing/configuration-refusals';
import { probeRegistration } from '@corekit/testing/probe-registration';
import { addMongoDbHealth } from './add-mongodb-health';

const entryPath = 'Engine:Observability:DependencyHealth:MongoDb:Dependencies:0';

const { register, configurationError } = probeRegistration(addMongoDbHealth, 'mongo');

describe('MongoDB probe configuration', () => {
  it('registers one contributor with the MongoDb event ids', () => {
    const added = register({ Host: 'db.internal', TimeoutSeconds: 3 });
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      id: 'mongo',
      kind: 'MongoDb',
      timeoutSeconds: 3,
      eventIds: probeEventIds.MongoDb,
    });
  });

  it('reads the section from environment variables, HealthCommand as JSON', () => {
    const added = register(null, {
      Engine__Observability__DependencyHealth__MongoDb__Dependencies__0__Id: 'from-env',
      Engine__Observability__DependencyHealth__MongoDb__Dependencies__0__ConnectionString:
        'mongodb://db-1:27017,db-2:27017/orders?replicaSet=rs0',
      Engine__Observability__DependencyHealth__MongoDb__Dependencies__0__HealthCommand: '{"hello":1}',
      Engine__Observability__DependencyHealth__MongoDb__Dependencies__0__UseTls: 'true',
    });
    expect(added.map((contributor) => contributor.id)).toEqual(['from-env']);
  });

  itRefusesEachEntry(
    configurationError,
    entryPath,
    [
      [{}, 'ConnectionString', /is required \(or Host\)/],
      [{ ConnectionString: 'mongodb://db:27017', Host: 'db' }, 'Host', /together with ConnectionString/],
      [{ ConnectionString: 'postgres://db:5432' }, 'ConnectionString', /mongodb:\/\/ or mongodb\+srv:\/\//],
      [
        { ConnectionString: 'mongodb://db:27017/?readPreference=sometimes' },
        'ConnectionString',
        /not accepted by the MongoDB driver/,
      ],
      [
        { ConnectionString: 'mongodb://app:p4ss-word@db:27017', Username: 'probe', Password: 'p4ss-word' },
        'Username',
        /carries credentials/,
      ],
      [{ Host: 'db', Password: 'p4ss-word' }, 'Username', /required when Password is set/],
      [{ Host: 'db', Username: 'probe' }, 'Password', /required when Username is set/],
      [{ Host: 'db', Port: 70000 }, 'Port', /port number/],
      [{ Host: 'db', HealthCommand: { insert: 'orders', documents: [{}] } }, 'HealthCommand', /read-only/],
      [
        { Host: 'db', HealthCommand: { aggregate: 'orders', pipeline: [{ $out: 'copy' }], cursor: {} } },
        'HealthCommand',
        /read-only/,
      ],
      [{ Host: 'db', HealthCommand: 'not json' }, 'HealthCommand', /command document/],
      [{ Host: 'db', UseTls: 'maybe' }, 'UseTls', /true or false/],
    ],
    ['p4ss-word'],
  );

  itRefusesPlaceholderPassword(configurationError, entryPath, {
    Host: 'db',
    Username: 'probe',
    Password: '<MONGO_PASSWORD>',
  });
});
