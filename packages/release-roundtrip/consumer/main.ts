// The program of the consumer project (copied into it as src/main.ts): a web host with three probes, eventing
// on the PostgreSQL outbox, tenant governance delivering invitations through SendGrid and taking SendGrid's
// status callbacks, written against the packages as installed from the registry. Checked there by
// `tsc` (strict, NodeNext: an ES module consumer) and started until /health/ready answers 200.
import { createEngineBuilder } from '@corekit/engine-core';
import { addEventing } from '@corekit/eventing';
import { addPostgresOutbox } from '@corekit/outbox-postgres';
import { addHttpHealth } from '@corekit/probe-http';
import { addPostgresHealth } from '@corekit/probe-postgres';
import { addRedisHealth } from '@corekit/probe-redis';
import { mapSendGridStatusCallbacks } from '@corekit/callback-sendgrid';
import { addSendGridInvitationDelivery } from '@corekit/sender-sendgrid';
import { addMultiTenancy } from '@corekit/tenancy';
import { addTenantGovernance, addTenantGovernanceDelivery } from '@corekit/tenant-governance';
import { createWebHost } from '@corekit/web-host';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

const database = new URL(required('DATABASE_URL'));
const redis = new URL(required('REDIS_URL'));

const builder = createEngineBuilder();
addPostgresHealth(builder, {
  Dependencies: [
    {
      Id: 'orders-db',
      Host: database.hostname,
      Port: Number(database.port || 5432),
      Database: database.pathname.slice(1),
      Username: decodeURIComponent(database.username),
    },
  ],
});
addRedisHealth(builder, {
  Dependencies: [{ Id: 'cache', Host: redis.hostname, Port: Number(redis.port || 6379) }],
});
addHttpHealth(builder, { Dependencies: [{ Id: 'inventory', Endpoint: required('UPSTREAM_URL') }] });

addEventing(builder, { Outbox: { Enabled: true } });
addPostgresOutbox(builder, { ConnectionString: database.href });

addMultiTenancy(builder, { Tenants: [{ Id: 'acme' }] });
addTenantGovernance(builder, {
  Memberships: [{ TenantId: 'acme', PrincipalId: 'founder', Roles: ['owner'] }],
});
addTenantGovernanceDelivery(builder);
// The options type asks for ApiKey in code (the README's snippet without it, reading it from the environment
// variable Engine__MultiTenancy__Governance__SendGridInvitationDelivery__ApiKey, does not compile under strict).
addSendGridInvitationDelivery(builder, {
  ApiKey: required('SENDGRID_API_KEY'),
  FromAddress: 'invitations@example.com',
  FromName: 'Example',
});
mapSendGridStatusCallbacks(builder, {
  SignedEventWebhookPublicKey: required('SENDGRID_WEBHOOK_PUBLIC_KEY'),
  StatusCallbackAuthorizationPolicy: 'delivery-callbacks',
});

const host = createWebHost(builder, {
  port: Number(process.env.PORT ?? 0),
  title: 'Release round trip',
  authorize: (request) => request.headers.authorization === `Bearer ${required('OPERATOR_TOKEN')}`,
});
const { url } = await host.listen();
console.log(`consumer listening on ${url}`);
