// Eventing benchmarks, run by hand: (a) PostgreSQL outbox staging against a bare INSERT in the same
// transaction (target ratio <= 1.2), (b) RabbitMQ dispatch throughput through the eventing dispatcher against a
// bare confirm-channel loop with the same batch size (target ratio >= 0.8). Exits 1 when a target is missed.
// Environment: POSTGRES_URL, RABBITMQ_URL, BENCH_ROUNDS (5), BENCH_STAGING_PER_ROUND (200),
// BENCH_MESSAGES (2000), BENCH_BATCH (50), BENCH_OUTBOX (memory | postgresql: where (b) stages),
// BENCH_WARMUP_ROUNDS (2: uncounted rounds of (b) on both sides first). With BENCH_OUTBOX=postgresql, (c) the
// PostgreSQL lane: the dispatcher on the PostgreSQL outbox against a bare claim-publish-confirm-update loop, on
// an empty table and on one holding BENCH_FOREIGN_ROWS (40000) dispatched rows of another outbox (target >= 0.8).
import { bareDispatch, packDispatch, type DispatchRun, type OutboxKind } from './dispatch-benchmark';
import { postgresLane } from './postgres-lane-benchmark';
import { stagingBenchmark } from './staging-benchmark';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const rabbitUrl = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const stagingPerRound = Number(process.env.BENCH_STAGING_PER_ROUND ?? 200);
const messages = Number(process.env.BENCH_MESSAGES ?? 2000);
const batch = Number(process.env.BENCH_BATCH ?? 50);
const outbox = (process.env.BENCH_OUTBOX ?? 'memory') as OutboxKind;
const warmupRounds = Number(process.env.BENCH_WARMUP_ROUNDS ?? 2);
const foreignRows = Number(process.env.BENCH_FOREIGN_ROWS ?? 40_000);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const staging = await stagingBenchmark(postgresUrl, rounds, stagingPerRound);
  console.log(
    `(a) staging: pack ${staging.packMedianMs.toFixed(3)} ms/tx, bare ${staging.bareMedianMs.toFixed(3)} ms/tx, ratio ${staging.ratio.toFixed(2)} (target <= 1.20)`,
  );
  // Warm-up rounds on both sides, not counted: the first rounds of each side measure the JIT compiling it
  // (the pack's path is longer, so it warms later), not the steady state a host runs in.
  for (let round = 0; round < warmupRounds; round += 1) {
    const exchange = `corekit.bench.${process.pid}.warmup${round}`;
    await bareDispatch(rabbitUrl, `${exchange}.bare`, messages, batch);
    await packDispatch(rabbitUrl, `${exchange}.pack`, messages, batch, outbox, postgresUrl);
  }
  const pack: DispatchRun[] = [];
  const bare: DispatchRun[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const exchange = `corekit.bench.${process.pid}.${round}`;
    if (round % 2 === 0) {
      bare.push(await bareDispatch(rabbitUrl, `${exchange}.bare`, messages, batch));
      pack.push(await packDispatch(rabbitUrl, `${exchange}.pack`, messages, batch, outbox, postgresUrl));
    } else {
      pack.push(await packDispatch(rabbitUrl, `${exchange}.pack`, messages, batch, outbox, postgresUrl));
      bare.push(await bareDispatch(rabbitUrl, `${exchange}.bare`, messages, batch));
    }
    const [p, b] = [pack.at(-1)!, bare.at(-1)!];
    console.log(
      `    round ${round + 1}: pack ${p.rate.toFixed(0)} msg/s (${p.cpuMicrosPerMessage.toFixed(0)} µs CPU/msg), bare ${b.rate.toFixed(0)} msg/s (${b.cpuMicrosPerMessage.toFixed(0)} µs CPU/msg), ratio ${(p.rate / b.rate).toFixed(2)}`,
    );
  }
  const rate = (runs: DispatchRun[]) => median(runs.map((run) => run.rate));
  const cpu = (runs: DispatchRun[]) => median(runs.map((run) => run.cpuMicrosPerMessage));
  const throughput = rate(pack) / rate(bare);
  console.log(
    `(b) dispatch (${outbox} outbox): pack ${rate(pack).toFixed(0)} msg/s, bare ${rate(bare).toFixed(0)} msg/s, ratio ${throughput.toFixed(2)} (target >= 0.80); median round ratio ${median(pack.map((p, i) => p.rate / bare[i]!.rate)).toFixed(2)}; CPU per message in this process: pack ${cpu(pack).toFixed(0)} µs, bare ${cpu(bare).toFixed(0)} µs`,
  );
  let laneMissed = false;
  if (outbox === 'postgresql') {
    for (const [label, rows] of [
      ['empty table', 0],
      [`in-service table (${foreignRows} dispatched rows of another outbox)`, foreignRows],
    ] as const) {
      const lane = await postgresLane({
        url: rabbitUrl,
        postgresUrl,
        rounds,
        count: messages,
        batch,
        foreignRows: rows,
        label,
      });
      laneMissed ||= lane.ratio < 0.8;
      console.log(
        `(c) PostgreSQL lane, ${label}: pack ${lane.pack.toFixed(0)} msg/s, bare claim loop ${lane.bare.toFixed(0)} msg/s, ratio ${lane.ratio.toFixed(2)} (target >= 0.80); median round ratio ${median(lane.roundRatios).toFixed(2)}`,
      );
    }
  }
  if (staging.ratio > 1.2 || throughput < 0.8 || laneMissed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
