// The child process of startLocalRegistry() (local-registry.ts): Verdaccio on 127.0.0.1, a port from the OS, the
// storage folder given as the first argument, no uplinks (it never asks another registry: a package it does not
// hold is a 404), anonymous read and publish. Prints `listening <port>` once it accepts connections; stops on
// SIGTERM.
import path from 'node:path';
import { runServer } from 'verdaccio';

const storageDir = process.argv[2];
if (!storageDir) {
  console.error('usage: node local-registry-server.mjs <storage folder>');
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
  server: { keepAliveTimeout: 5 },
  max_body_size: '200mb',
  log: { type: 'stdout', format: 'json', level: 'warn' },
});

server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
});
