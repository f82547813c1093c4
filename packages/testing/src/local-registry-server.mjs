// The child process of startLocalRegistry() (local-registry.ts): Verdaccio on 127.0.0.1, a port from the OS, the
// storage folder given as the first argument, no uplinks (it never asks another registry: a package it does not
// hold is a 404), anonymous read and publish, served under a path of its own (the second argument, `/r-<random>/`):
// npm caches registry answers by URL, so a cached answer of an earlier registry on the same port is never taken
// for this one's. Prints `listening <port>` once it accepts connections; stops on SIGTERM.
import path from 'node:path';
import { runServer } from 'verdaccio';

const [storageDir, prefix = '/'] = process.argv.slice(2);
if (!storageDir || !prefix.startsWith('/') || !prefix.endsWith('/')) {
  console.error('usage: node local-registry-server.mjs <storage folder> [/path-prefix/]');
  process.exit(2);
}

const everyone = { access: '$all', publish: '$all', unpublish: '$all' };
const server = await runServer({
  self_path: path.join(storageDir, 'config.yaml'),
  storage: path.join(storageDir, 'storage'),
  // htpasswd is Verdaccio's default auth plugin; nobody registers, publishing is open to every caller.
  auth: { htpasswd: { file: path.join(storageDir, 'htpasswd'), max_users: -1 } },
  uplinks: {},
  packages: { '@*/*': everyone, '**': everyone },
  web: { enable: false },
  // The tarball addresses in the package documents carry the prefix; the requests arrive with it and lose it below.
  url_prefix: prefix,
  server: { keepAliveTimeout: 5 },
  max_body_size: '200mb',
  log: { type: 'stdout', format: 'json', level: 'warn' },
});

// Verdaccio's routes start at /: requests under the prefix are handed to it without the prefix, others are 404.
const [verdaccio] = server.listeners('request');
server.removeAllListeners('request');
server.on('request', (request, response) => {
  if (!request.url.startsWith(prefix)) {
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"error":"not under this registry"}');
    return;
  }
  request.url = request.url.slice(prefix.length - 1);
  verdaccio(request, response);
});

server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
});
