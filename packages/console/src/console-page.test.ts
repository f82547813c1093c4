import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { negotiateEncoding } from './console-assets';
import { consoleContentSecurityPolicy } from './console-page';
import { initialReads, stripsRead } from './initial-reads';
import { closeConsoleHosts, startConsoleHost } from './test-support/console-test-host';

afterEach(closeConsoleHosts);

describe('the console page and its assets', () => {
  it('serves the page with its own strict CSP, lang set and only relative URLs, no inline script or style', async () => {
    const test = await startConsoleHost();
    const answer = await test.get('/engine/console');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toBe(consoleContentSecurityPolicy);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await answer.text();
    expect(html).toContain('<html lang="en">');
    expect(html).not.toMatch(/<style|style=|<script>|<script(?![^>]*\bsrc=)/);
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    const assets = urls.filter((url) => url.startsWith('console/assets/'));
    expect(assets).toHaveLength(2);
    for (const url of assets) expect(url).toMatch(/^console\/assets\/console-[A-Z0-9]+\.(js|css)$/);
    // The first reads are preloaded with the page, relative like everything else, as the script reads them.
    const preloads = [
      ...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" crossorigin="anonymous">/g),
    ].map((match) => match[1]!.replace(/&#38;/g, '&'));
    expect(preloads).toEqual(Object.values(initialReads));
    expect(urls).toHaveLength(assets.length + preloads.length);
    // The script is asked for before the reads (it never waits for a connection behind them), and the history
    // strips, the largest read, are not among them (the overview reads them after its first paint).
    expect(html.indexOf('<script')).toBeLessThan(html.indexOf('rel="preload"'));
    expect(preloads).not.toContain(stripsRead);
  });

  it('serves each asset precompressed as the browser accepts it (brotli, else gzip, else plain), with Vary: Accept-Encoding', async () => {
    const test = await startConsoleHost();
    const html = await (await test.get('/engine/console')).text();
    const script = /src="(console\/assets\/[^"]+\.js)"/.exec(html)![1];
    const raw = (acceptEncoding: string | null) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        get(
          `${test.base}/engine/${script}`,
          { headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => resolve({ headers: answer.headers, body: Buffer.concat(chunks) }));
          },
        ).on('error', reject);
      });
    const plain = await raw(null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const brotli = await raw('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 2);
    const gzip = await raw('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect((await raw('br;q=0, gzip;q=0.5')).headers['content-encoding']).toBe('gzip');
    expect((await raw('identity')).headers['content-encoding']).toBeUndefined();
  });

  it('negotiates the encoding by Accept-Encoding weights', () => {
    const both = { br: Buffer.from('b'), gzip: Buffer.from('g') };
    expect(negotiateEncoding('br, gzip', both)).toBe('br');
    expect(negotiateEncoding('gzip;q=1, br;q=0', both)).toBe('gzip');
    expect(negotiateEncoding('*', both)).toBe('br');
    expect(negotiateEncoding('*;q=0', both)).toBeNull();
    expect(negotiateEncoding('br', { gzip: both.gzip })).toBeNull();
    expect(negotiateEncoding(undefined, both)).toBeNull();
  });

  it('serves the hashed assets immutably and answers 404 for any other name', async () => {
    const test = await startConsoleHost();
    const html = await (await test.get('/engine/console')).text();
    const urls = [...html.matchAll(/(?:src|href)="(console\/assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(urls).toHaveLength(2);
    for (const url of urls) {
      const asset = await test.get(`/engine/${url}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-type')).toMatch(
        url.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
      const text = await asset.text();
      expect(text).not.toMatch(
        /https?:\/\/(?!www\.w3\.org)[a-z]/i.test(text) ? /\bfetch\(["']https?:/ : /$^/,
      );
    }
    const missing = await test.get('/engine/console/assets/console-NOPE.js');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('CONSOLE_ASSET_NOT_FOUND');
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('in production refuses an anonymous request exactly like every /engine route, and serves an authorized one', async () => {
    const production = { NODE_ENV: 'production' };
    const test = await startConsoleHost({
      environment: production,
      authorize: (request) => request.headers.authorization === 'Bearer operator',
    });
    for (const path of [
      '/engine/console',
      '/engine/console/catalogs',
      '/engine/console/info',
      '/engine/status',
    ]) {
      const anonymous = await test.get(path);
      expect([path, anonymous.status]).toEqual([path, 403]);
      expect(((await anonymous.json()) as { code: string }).code).toBe('FORBIDDEN');
    }
    const html = await (await test.get('/engine/console', { authorization: 'Bearer operator' })).text();
    const script = /src="([^"]+)"/.exec(html)![1];
    expect((await test.get(`/engine/${script}`)).status).toBe(403);
    expect((await test.get(`/engine/${script}`, { authorization: 'Bearer operator' })).status).toBe(200);
  });

  it('without an authorize hook in production, the console is refused to everyone like /engine (403)', async () => {
    const test = await startConsoleHost({ environment: { NODE_ENV: 'production' } });
    for (const path of ['/engine', '/engine/console', '/engine/console/info']) {
      const answer = await test.get(path);
      expect([path, answer.status]).toEqual([path, 403]);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await answer.json()) as { code: string }).code).toBe('FORBIDDEN');
    }
  });

  it('in production with a hook that says unauthenticated, the console answers 401 with a Bearer challenge like /engine', async () => {
    const test = await startConsoleHost({
      environment: { NODE_ENV: 'production' },
      authorize: (request) =>
        request.headers.authorization === 'Bearer operator' ? true : { outcome: 'unauthenticated' },
    });
    for (const path of ['/engine', '/engine/console', '/engine/console/info']) {
      const answer = await test.get(path);
      expect([path, answer.status, answer.headers.get('www-authenticate')]).toEqual([path, 401, 'Bearer']);
      expect(((await answer.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('the console address', () => {
  it('redirects /engine/console/ (trailing slash) to /engine/console with a relative Location', async () => {
    const test = await startConsoleHost();
    const answer = await fetch(`${test.base}/engine/console/`, { redirect: 'manual' });
    expect(answer.status).toBe(308);
    expect(answer.headers.get('location')).toBe('../console');
    expect(new URL(answer.headers.get('location')!, `${test.base}/engine/console/`).pathname).toBe(
      '/engine/console',
    );
    const followed = await fetch(`${test.base}/engine/console/`);
    expect(followed.url).toBe(`${test.base}/engine/console`);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('<html lang="en">');
  });
});
