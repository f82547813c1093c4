// Child process of the replica takeover test: a replica on the shared store the parent names (PROVIDER
// postgresql with POSTGRES_URL + TABLE_NAME, or redis with REDIS_URL + KEY_PREFIX) runs one retry pass whose
// send never answers, printing `sending attempt <n>` once its claim is written and the send started. The
// parent kills it there (SIGKILL), leaving the claim behind.
import type { StoreProvider } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { PostgresStoreProvider } from '@corekit/store-postgres';
import { RedisStoreProvider } from '@corekit/store-redis';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '../index';

function provider(): StoreProvider {
  if (process.env.PROVIDER === 'postgresql') {
    return new PostgresStoreProvider({
      connectionString: process.env.POSTGRES_URL!,
      tableName: process.env.TABLE_NAME!,
    });
  }
  return new RedisStoreProvider({ url: process.env.REDIS_URL!, keyPrefix: process.env.KEY_PREFIX! });
}

async function main(): Promise<void> {
  const builder = createEngineBuilder({
    contentRoot: process.env.CONTENT_ROOT!,
    environment: {},
    logger: { log: () => undefined },
  });
  addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }, { Id: 'globex' }] });
  addTenantGovernance(builder, { InvitationExpirySweepIntervalSeconds: 0 });
  const delivery = addTenantGovernanceDelivery(builder, {
    EnableInvitationDeliveryRetryQueue: true,
    InvitationDeliveryRetryDelaySeconds: 0,
    InvitationDeliveryRetryMaxAttempts: 5,
  });
  delivery.senders.add({
    id: 'mail',
    supportedChannels: ['email'],
    send: (request) => {
      process.stdout.write(`sending attempt ${request.attempt}\n`);
      return new Promise(() => undefined);
    },
  });
  builder.useStoreProvider(provider());
  const engine = builder.build();
  await engine.start();
  await delivery.retryRunner.retryPending();
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
