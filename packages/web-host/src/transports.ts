import { createRequire } from 'node:module';
import {
  CoreError,
  transportAdapterKey,
  type ConfigurationReader,
  type Engine,
  type TransportAdapter,
} from '@corekit/abstractions';

/** Transports the web host serves itself (spec 4.5). */
export const builtInTransports = ['RestApi', 'ServerSentEvents', 'WebSocket'] as const;

/** Transports served by an adapter package, with the package and its registration call. */
export const adapterTransports = {
  GraphQL: { packageName: '@corekit/transport-graphql', registration: 'addGraphQlTransport' },
  Grpc: { packageName: '@corekit/transport-grpc', registration: 'addGrpcTransport' },
  JsonRpc: { packageName: '@corekit/transport-jsonrpc', registration: 'addJsonRpcTransport' },
} as const;

export type TransportName = (typeof builtInTransports)[number] | keyof typeof adapterTransports;

const resolveFromHere = createRequire(typeof __filename === 'string' ? __filename : import.meta.url);

function isInstalled(packageName: string): boolean {
  try {
    resolveFromHere.resolve(packageName);
    return true;
  } catch {
    try {
      createRequire(`${process.cwd()}/`).resolve(packageName);
      return true;
    } catch {
      return false;
    }
  }
}

/** Reads `Engine:Transports`: an array (`Engine__Transports__0=RestApi`) or a comma list. Default ["RestApi"]. */
export function readTransportNames(configuration: ConfigurationReader): string[] {
  const raw = configuration.get('Engine:Transports');
  if (raw === undefined || raw === null || raw === '') return ['RestApi'];
  const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
  return values.map((value) => String(value).trim()).filter(Boolean);
}

/**
 * Validates `Engine:Transports` and returns the built-in transports to serve plus the adapters to mount.
 * Unknown names and adapters whose package is missing or not registered fail with TRANSPORT_UNAVAILABLE,
 * naming the package to install and the call to make.
 */
export function resolveTransports(
  engine: Pick<Engine, 'resolve'>,
  names: readonly string[],
  installed: (packageName: string) => boolean = isInstalled,
): {
  builtIn: Set<(typeof builtInTransports)[number]>;
  adapters: Array<{ name: string; adapter: TransportAdapter }>;
} {
  const builtIn = new Set<(typeof builtInTransports)[number]>();
  const adapters: Array<{ name: string; adapter: TransportAdapter }> = [];
  const problems: string[] = [];
  const known = [...builtInTransports, ...Object.keys(adapterTransports)];
  names.forEach((name, index) => {
    const canonical = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    const key = `Engine:Transports:${index}`;
    if (!canonical) {
      problems.push(`${key} is "${name}", which is not a transport; use one of ${known.join(', ')}`);
      return;
    }
    if ((builtInTransports as readonly string[]).includes(canonical)) {
      builtIn.add(canonical as (typeof builtInTransports)[number]);
      return;
    }
    const { packageName, registration } = adapterTransports[canonical as keyof typeof adapterTransports];
    const adapter = engine.resolve(transportAdapterKey(canonical));
    if (adapter && typeof adapter.mount === 'function') {
      adapters.push({ name: canonical, adapter });
    } else if (installed(packageName)) {
      problems.push(
        `${key} is ${canonical}: ${packageName} is installed but not registered; call ${registration}(builder) before building the engine`,
      );
    } else {
      problems.push(
        `${key} is ${canonical}, which needs the package ${packageName}: install it (pnpm add ${packageName}) and call ${registration}(builder)`,
      );
    }
  });
  if (problems.length > 0) {
    throw new CoreError(
      'TRANSPORT_UNAVAILABLE',
      `The web host cannot serve the configured transports:\n- ${problems.join('\n- ')}`,
      {
        problems,
      },
    );
  }
  return { builtIn, adapters };
}
