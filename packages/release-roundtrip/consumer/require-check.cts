// A CommonJS consumer of the same packages (copied into the consumer project as src/require-check.cts): tsc
// resolves them through their `require` conditions (index.d.cts) and node loads their index.cjs. Prints one
// line naming each package and its registration function.
import engineCore = require('@corekit/engine-core');
import webHost = require('@corekit/web-host');
import probePostgres = require('@corekit/probe-postgres');
import probeRedis = require('@corekit/probe-redis');
import probeHttp = require('@corekit/probe-http');
import eventing = require('@corekit/eventing');
import outboxPostgres = require('@corekit/outbox-postgres');
import tenancy = require('@corekit/tenancy');
import tenantGovernance = require('@corekit/tenant-governance');
import senderSendGrid = require('@corekit/sender-sendgrid');
import callbackSendGrid = require('@corekit/callback-sendgrid');

const registrations: Record<string, unknown> = {
  '@corekit/engine-core': engineCore.createEngineBuilder,
  '@corekit/web-host': webHost.createWebHost,
  '@corekit/probe-postgres': probePostgres.addPostgresHealth,
  '@corekit/probe-redis': probeRedis.addRedisHealth,
  '@corekit/probe-http': probeHttp.addHttpHealth,
  '@corekit/eventing': eventing.addEventing,
  '@corekit/outbox-postgres': outboxPostgres.addPostgresOutbox,
  '@corekit/tenancy': tenancy.addMultiTenancy,
  '@corekit/tenant-governance': tenantGovernance.addTenantGovernance,
  '@corekit/sender-sendgrid': senderSendGrid.addSendGridInvitationDelivery,
  '@corekit/callback-sendgrid': callbackSendGrid.mapSendGridStatusCallbacks,
};
const missing = Object.entries(registrations).filter(([, value]) => typeof value !== 'function');
if (missing.length > 0) {
  console.error(`require() gave no registration function for ${missing.map(([name]) => name).join(', ')}`);
  process.exit(1);
}
console.log(`require() loaded ${Object.keys(registrations).join(', ')}`);
