// A replica of the alerts pack in a child process (the process-kill test): the shared store its environment names
// (`Engine__Stores__Provider` PostgreSql or Redis and that provider's section, from the test's replica target), no
// dependencies of its own, a delivery pass every 100 ms with a 4 s lease, the two webhook targets of the test.
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { addWebhookNotifier } from '@corekit/notifier-webhook';
import { addPostgresStores } from '@corekit/store-postgres';
import { addRedisStores } from '@corekit/store-redis';
import { emptyContentDirectory } from '@corekit/testing/test-engine-builder';
import { addAlerts } from '../index';

const environment = process.env as Record<string, string>;
const storeEnvironment = Object.fromEntries(
  Object.entries(environment).filter(([name]) => name.startsWith('Engine__Stores__')),
);
const builder = createEngineBuilder({
  environment: storeEnvironment,
  contentRoot: emptyContentDirectory(),
  logger: createMemoryLogger(),
  configuration: { Engine: { Service: { Name: 'orders-service' } } },
});
if (storeEnvironment.Engine__Stores__Provider === 'Redis') addRedisStores(builder);
else {
  addPostgresStores(builder, {
    ConnectionString: storeEnvironment.Engine__Stores__PostgreSql__ConnectionString,
    PoolMax: 2,
  });
}
addAlerts(builder, {
  EvaluationInterval: '1h',
  Delivery: { Interval: '100ms', Lease: '4s' },
});
addWebhookNotifier(builder, {
  Targets: ['a', 'b'].map((name) => ({
    Id: `hook-${name}`,
    Url: `${environment.RECEIVER_URL}/${name}`,
    Secret: environment.WEBHOOK_SECRET,
    TimeoutSeconds: 2,
  })),
});
const engine = builder.build();
await engine.start();
console.log(`READY ${builder.instanceId}`);
setInterval(() => undefined, 60_000);
