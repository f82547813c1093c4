import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreError } from '@corekit/abstractions';
import { apiReference } from '@scalar/express-api-reference';
import type { HostRoute } from './host-route';

/** Where the page loads the Scalar bundle from: served by this host, never a CDN. */
export const scalarBundleRoute = '/scalar/standalone.js';
export const openApiRoute = '/openapi/v1.json';

const moduleFile = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);

/**
 * The standalone browser bundle of `@scalar/api-reference`, which registers `window.Scalar` (the page built by
 * `@scalar/express-api-reference` calls `Scalar.createApiReference`). The published package carries it in
 * `dist/scalar/` (copied at build time, so installing the web host does not install Scalar's dependency tree);
 * running from sources (tests, tsx), it is read from the `@scalar/api-reference` build dependency.
 */
export function scalarBundleFile(): string {
  const shipped = path.join(path.dirname(moduleFile), 'scalar', 'standalone.js');
  if (existsSync(shipped)) return shipped;
  try {
    const entry = createRequire(moduleFile).resolve('@scalar/api-reference');
    return path.join(path.dirname(entry), 'browser', 'standalone.js');
  } catch {
    throw new CoreError(
      'SCALAR_BUNDLE_MISSING',
      `The Scalar API reference bundle is missing: neither ${shipped} (the published package) nor the ` +
        '@scalar/api-reference build dependency (running from sources) is there. Reinstall @corekit/web-host.',
      { expected: shipped },
    );
  }
}

/**
 * `/scalar` (the interactive reference over `/openapi/v1.json`) and the bundle it loads. Everything the page
 * needs comes from this host: the bundle is local, default web fonts, telemetry and the hosted AI agent are
 * off, so it works with no internet.
 */
export function scalarRoutes(title: string): HostRoute[] {
  const bundle = scalarBundleFile();
  const page: (request: unknown, response: unknown, next: () => void) => void = apiReference({
    url: openApiRoute,
    cdn: scalarBundleRoute,
    pageTitle: `${title} API reference`,
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: 'never',
    agent: { disabled: true },
  } as Parameters<typeof apiReference>[0]) as never;
  return [
    {
      method: 'get',
      path: '/scalar',
      rel: 'scalar',
      summary: 'Interactive API reference (Scalar)',
      description: `An interactive reference over ${openApiRoute}; works offline.`,
      tags: ['Reference'],
      responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      handler: (request, response) => page(request, response, () => undefined),
    },
    {
      method: 'get',
      path: scalarBundleRoute,
      summary: 'Scalar API reference bundle',
      description:
        'The standalone browser bundle of @scalar/api-reference, served from the installed package.',
      tags: ['Reference'],
      responses: { 200: { description: 'JavaScript', contentType: 'application/javascript' } },
      handler: (_request, response) =>
        new Promise<void>((resolve, reject) => {
          response.type('application/javascript');
          response.sendFile(bundle, { maxAge: '1h', dotfiles: 'allow' }, (error) =>
            error ? reject(error) : resolve(),
          );
        }),
    },
  ];
}
