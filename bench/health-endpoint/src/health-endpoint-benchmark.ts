// `pnpm --filter @corekit/bench-health-endpoint bench`: /health/ready of the web host (18 contributors, one taking
// 2 s per check) against a bare express route with a JSON body of the same size, on loopback, alternating rounds.
// Prints both results and the ratios; these machines are noisy, so only the ratio is a result.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';

const directory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const servers = spawn(process.execPath, ['--import', 'tsx', 'src/benchmark-servers.ts'], {
  cwd: directory,
  env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.run.json' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ports = await new Promise<{ hostPort: number; barePort: number; bodyBytes: number }>(
  (resolve, reject) => {
    let output = '';
    servers.stdout!.setEncoding('utf8');
    servers.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"hostPort"'));
      if (line) resolve(JSON.parse(line));
    });
    servers.once('exit', (code) => reject(new Error(`the benchmark servers exited with code ${code}`)));
  },
);

const targets = {
  bare: `http://127.0.0.1:${ports.barePort}/bare`,
  host: `http://127.0.0.1:${ports.hostPort}/health/ready`,
};
const results: Record<'bare' | 'host', Result[]> = { bare: [], host: [] };
try {
  for (const url of Object.values(targets)) await autocannon({ url, connections, duration: 2 });
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['bare', 'host'] as const) {
      const result = await autocannon({ url: targets[name], connections, duration });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      results[name].push(result);
      process.stdout.write(
        `round ${round} ${name.padEnd(4)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p99 ${String(result.latency.p99).padStart(3)} ms\n`,
      );
    }
  }
} finally {
  servers.kill('SIGTERM');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = (name: 'bare' | 'host') => ({
  requestsPerSecond: median(results[name].map((result) => result.requests.average)),
  p99: median(results[name].map((result) => result.latency.p99)),
});
const bare = summary('bare');
const host = summary('host');
const throughputRatio = host.requestsPerSecond / bare.requestsPerSecond;
process.stdout.write(
  [
    '',
    `Body ${ports.bodyBytes} bytes, ${connections} connections, ${rounds} rounds of ${duration} s each (medians):`,
    `| route | req/s | p99 latency |`,
    `|---|---|---|`,
    `| bare express, same JSON body | ${bare.requestsPerSecond.toFixed(0)} | ${bare.p99} ms |`,
    `| /health/ready, 18 contributors (one 2 s per check) | ${host.requestsPerSecond.toFixed(0)} | ${host.p99} ms |`,
    '',
    `throughput ratio host/bare: ${throughputRatio.toFixed(2)} (target >= 0.80: ${throughputRatio >= 0.8 ? 'met' : 'NOT met'})`,
    `p99 host - bare: ${host.p99 - bare.p99} ms`,
    '',
  ].join('\n'),
);
process.exitCode = throughputRatio >= 0.8 ? 0 : 1;
