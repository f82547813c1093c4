import { parseArgs } from 'node:util';
import { deploymentTargets, type DeploymentTarget } from './artifacts';

/** What the flags gave; an absent field is asked for (or defaulted with --yes). */
export interface CliAnswers {
  directory?: string;
  host?: 'web' | 'worker';
  probes?: string[];
  packs?: string[];
  targets?: DeploymentTarget[];
  port?: number;
  yes: boolean;
  workspace?: string;
  help: boolean;
}

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0);

/** Parses `create-corekit-host [dir] --host web|worker --probes a,b --packs a,b --targets a,b --port n --yes`. */
export function parseCliArguments(argv: readonly string[]): CliAnswers {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      probes: { type: 'string' },
      packs: { type: 'string' },
      targets: { type: 'string' },
      port: { type: 'string' },
      workspace: { type: 'string' },
      yes: { type: 'boolean', short: 'y', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.host !== undefined && values.host !== 'web' && values.host !== 'worker')
    throw new Error(`--host must be web or worker, got "${values.host}"`);
  const targets = list(values.targets);
  for (const target of targets ?? [])
    if (!(deploymentTargets as readonly string[]).includes(target))
      throw new Error(`--targets: unknown target "${target}": choose from ${deploymentTargets.join(', ')}`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))
    throw new Error(`--port must be 1-65535, got "${values.port}"`);
  return {
    directory: positionals[0],
    host: values.host as 'web' | 'worker' | undefined,
    probes: list(values.probes),
    packs: list(values.packs),
    targets: targets as DeploymentTarget[] | undefined,
    port,
    yes: values.yes === true,
    workspace: values.workspace,
    help: values.help === true,
  };
}

export const usage = `usage: create-corekit-host [directory] [--host web|worker] [--probes http,redis] [--packs tenancy]
  [--targets ${deploymentTargets.join(',')}] [--port 3000] [--yes] [--workspace <corekit checkout>]
Every question is asked unless given as a flag; --yes takes the defaults for the rest (web host, no probe,
no pack, every target, port 3000) and never prompts.`;
