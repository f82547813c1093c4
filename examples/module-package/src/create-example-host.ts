import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngineBuilder, type EngineBuilderOptions } from '@corekit/engine-core';
import { createWebHost, type WebHost } from '@corekit/web-host';

export interface ExampleHostOptions {
  /** Directory holding engine.json (Engine:Discovery, Engine:PackagePolicy, Engine:Trust). */
  readonly contentRoot: string;
  /**
   * The public key that signed the staged package, trusted in code because it is generated per machine.
   * Skipped when the file does not exist (a certificate-signed package is trusted through engine.json or the
   * environment instead).
   */
  readonly publicKeyFile: string;
  readonly port?: number;
  readonly handleSignals?: boolean;
  readonly builderOptions?: Partial<EngineBuilderOptions>;
}

/**
 * The example host: a web host whose engine discovers the staged package (engine.json) and trusts the key
 * it was signed with. Nothing here is specific to packages: the engine discovers, checks and loads them during
 * start, and the web host mounts the operations loaded modules declare (`engine.operations`).
 * Returns the module operations it serves as `METHOD path`.
 */
export async function startExampleHost(
  options: ExampleHostOptions,
): Promise<{ host: WebHost; url: string; routes: string[] }> {
  const keyFile = path.resolve(options.contentRoot, options.publicKeyFile);
  const builder = createEngineBuilder({
    contentRoot: options.contentRoot,
    ...options.builderOptions,
    configuration: existsSync(keyFile)
      ? { Engine: { Trust: { TrustedSignaturePublicKeys: [readFileSync(keyFile, 'utf8')] } } }
      : {},
  });
  const host = createWebHost(builder, {
    port: options.port,
    handleSignals: options.handleSignals ?? true,
    title: 'Module package example',
  });
  const { url } = await host.listen();
  const declared = host.engine.operations.list().filter((operation) => operation.path.startsWith('/api/'));
  return { host, url, routes: declared.map((operation) => `${operation.method} ${operation.path}`) };
}
