#!/usr/bin/env node
// create-corekit-host: `npm create corekit-host@latest my-service` / `pnpm create corekit-host`. Asks what is not
// given as a flag (see usage), writes the host, and prints the two commands.
import path from 'node:path';
import * as prompts from '@clack/prompts';
import { deploymentTargets, type DeploymentTarget } from './artifacts';
import { loadCatalog } from './catalog';
import { generateHost } from './generate';
import { parseCliArguments, usage } from './options';

function orExit<T>(value: T | symbol): T {
  if (prompts.isCancel(value)) {
    prompts.cancel('Nothing written.');
    process.exit(1);
  }
  return value as T;
}

async function main(): Promise<void> {
  const given = parseCliArguments(process.argv.slice(2));
  if (given.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const catalog = loadCatalog(given.workspace ? path.resolve(given.workspace) : undefined);
  const ask = !given.yes;
  if (ask) prompts.intro('create-corekit-host');
  const directory =
    given.directory ??
    (ask
      ? orExit(
          await prompts.text({
            message: 'Folder of the new host',
            placeholder: 'my-service',
            defaultValue: 'my-service',
          }),
        )
      : 'my-service');
  const host =
    given.host ??
    (ask
      ? orExit(
          await prompts.select({
            message: 'Host',
            options: [
              { value: 'web' as const, label: 'web', hint: 'HTTP service: health, /engine, OpenAPI, Scalar' },
              { value: 'worker' as const, label: 'worker', hint: 'background work, health on a port' },
            ],
          }),
        )
      : 'web');
  const probes =
    given.probes ??
    (ask
      ? orExit(
          await prompts.multiselect({
            message: 'Dependency probes',
            options: catalog.probes.map((probe) => ({
              value: probe.id,
              label: probe.id,
              hint: `@corekit/${probe.folder}`,
            })),
            required: false,
          }),
        )
      : []);
  const packs =
    given.packs ??
    (ask && catalog.packs.length > 0
      ? orExit(
          await prompts.multiselect({
            message: 'Packs',
            options: catalog.packs.map((pack) => ({
              value: pack.id,
              label: pack.id,
              hint: `@corekit/${pack.folder}`,
            })),
            required: false,
          }),
        )
      : []);
  const targets: DeploymentTarget[] =
    given.targets ??
    (ask
      ? orExit(
          await prompts.multiselect({
            message: 'Deployment targets',
            options: deploymentTargets.map((target) => ({ value: target, label: target })),
            initialValues: [...deploymentTargets],
            required: false,
          }),
        )
      : [...deploymentTargets]);
  const { files } = generateHost({ directory, host, probes, packs, targets, port: given.port }, catalog);
  const relative = path.relative(process.cwd(), path.resolve(directory)) || '.';
  const next = `cd ${relative}\nnpm install && npm start   # build and start\nnpm install && npm test    # test`;
  if (ask) prompts.outro(`${files.length} files written.\n${next}`);
  else process.stdout.write(`${files.length} files written in ${relative}\n${next}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`create-corekit-host: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
