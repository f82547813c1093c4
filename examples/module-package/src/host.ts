// `pnpm host`: serves the staged, signed package. Run `pnpm stage` first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startExampleHost } from './create-example-host';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { url, routes, host } = await startExampleHost({
  contentRoot: root,
  publicKeyFile: '.keys/example.public.pem',
});
for (const record of host.engine.packages()) {
  console.log(
    `package ${record.id}@${record.version}: ${record.outcome} (${String(record.verification)})${record.reasons.length ? ` - ${record.reasons.join('; ')}` : ''}`,
  );
}
console.log(`module routes: ${routes.join(', ') || 'none'}`);
console.log(
  `open ${url}/api/operations/status, ${url}/engine/packages, ${url}/engine/trust-policy, ${url}/engine/snapshot`,
);
