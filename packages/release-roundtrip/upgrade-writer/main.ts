// The upgrade writer: a program of the previous release, compiled against its packages as a consumer installs
// them (pinned, from the local registry) and run by src/stored-state-upgrade.integration.test.ts. It is the part
// of the sample host of that release (examples/web-host at the commit of previous-release/release.json) that
// stores state: the same packs with the same options (packs/*.ts and shared-stores.ts are that commit's files),
// the same authorize hook, on the store `Engine:Stores` names (the File store in SAMPLE_DATA_DIRECTORY/stores
// otherwise). The test writes the scenario through its routes and reads its surfaces after a restart; the
// current sample host must answer the same on the same state. Prints "upgrade writer listening on <url>".
import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { createEngineBuilder } from '@corekit/engine-core';
import { createWebHost } from '@corekit/web-host';
import { bearerToken } from './bearer-token';
import { addAgentsDemo, agentsDemoAuthorize } from './packs/agents-demo';
import { addDataDemo } from './packs/data-demo';
import { addEventingDemo } from './packs/eventing-demo';
import { addGovernanceDeliveryDemo } from './packs/governance-delivery-demo';
import { addGovernanceWebDemo, governanceDemoAuthorize } from './packs/governance-web-demo';
import { addTenancyDemo } from './packs/tenancy-demo';
import { addSharedStoresWhenConfigured } from './shared-stores';

async function main(): Promise<void> {
  const environment = process.env;
  const builder = createEngineBuilder({ environment });
  addSharedStoresWhenConfigured(builder);
  const data = environment.SAMPLE_DATA_DIRECTORY;
  if (!data) throw new Error('SAMPLE_DATA_DIRECTORY must name the folder of the File store');
  addTenancyDemo(builder, { dataDirectory: path.join(data, 'stores') });
  addGovernanceDeliveryDemo(builder, { dataDirectory: data });
  addGovernanceWebDemo(builder);
  addAgentsDemo(builder);
  addEventingDemo(builder);
  addDataDemo(builder);

  const token = environment.SAMPLE_OPERATOR_TOKEN;
  if (!token) throw new Error('SAMPLE_OPERATOR_TOKEN must be set');
  builder.addSecret(token);
  const expected = Buffer.from(token);
  const host = createWebHost(builder, {
    title: 'Core upgrade writer (previous release)',
    port: 0,
    environment,
    authorize: (request, requirement) => {
      const policy = requirement?.policy ?? null;
      const demoDecision =
        agentsDemoAuthorize(request.headers, policy, requirement?.resource) ??
        governanceDemoAuthorize(request.headers, policy, requirement?.resource);
      if (demoDecision) return demoDecision;
      const given = bearerToken(request.headers);
      if (!given) return { outcome: 'unauthenticated', reason: 'pass Authorization: Bearer <token>' };
      const matches = given.length === expected.length && timingSafeEqual(Buffer.from(given), expected);
      return matches ? { outcome: 'allowed', principal: { subject: 'operator' } } : false;
    },
  });
  const { url } = await host.listen();
  process.stdout.write(`upgrade writer listening on ${url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
