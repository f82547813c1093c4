// Builds an engine whose catalogs hold N entries (spread over outboxes, data products, projections, inboxes and
// cell boundaries), then times `JSON.stringify(engine.snapshot())` against `JSON.stringify` of the same plain
// entries, side by side in this process, alternating runs. Prints the ratio at 1k, 10k and 100k entries and the
// time per entry, so linearity can be read off. Run: pnpm --filter @corekit/bench-snapshot bench (after pnpm build).
import { performance } from 'node:perf_hooks';
import { createEngineBuilder } from '@corekit/engine-core';

const catalogs = [
  [
    'outboxes',
    (i) => ({
      id: `outbox-${i}`,
      displayName: `Outbox ${i}`,
      sourceModuleId: 'bench',
      provider: 'postgres',
      mode: 'transactional',
      channelIds: [`channel-${i % 50}`],
      tags: ['bench'],
      metadata: { shard: i % 16 },
    }),
  ],
  [
    'data-products',
    (i) => ({
      id: `product-${i}`,
      displayName: `Product ${i}`,
      sourceModuleId: 'bench',
      domainId: `domain-${i % 20}`,
      contractId: `contract-${i}`,
      mode: 'batch',
      tags: ['bench'],
      metadata: {},
    }),
  ],
  [
    'projections',
    (i) => ({
      id: `projection-${i}`,
      displayName: `Projection ${i}`,
      sourceModuleId: 'bench',
      targetStoreId: 'redis',
      mode: 'async',
      sourceContracts: [`contract-${i}`],
      tags: [],
      metadata: {},
    }),
  ],
  [
    'inboxes',
    (i) => ({
      id: `inbox-${i}`,
      displayName: `Inbox ${i}`,
      sourceModuleId: 'bench',
      provider: 'postgres',
      mode: 'deduplicating',
      channelIds: [],
      tags: [],
      metadata: {},
    }),
  ],
  [
    'cells',
    (i) => ({
      id: `cell-${i}`,
      displayName: `Cell ${i}`,
      sourceModuleId: 'bench',
      placement: `zone-${i % 3}`,
      moduleIds: ['bench'],
      tags: [],
      metadata: {},
    }),
  ],
];

function setUp(total) {
  const builder = createEngineBuilder({ environment: {}, logger: { log() {} } });
  builder.addModule({ id: 'bench', version: '1.0.0' });
  const plain = {};
  const perCatalog = Math.ceil(total / catalogs.length);
  for (const [catalogId, make] of catalogs) {
    const entries = Array.from({ length: perCatalog }, (_, i) => make(i));
    builder.addCatalogEntries(catalogId, 'bench', entries);
    plain[catalogId] = entries;
  }
  const engine = builder.build();
  // The baseline serializes exactly the published entries (defaults applied), so both sides write the same bytes
  // of catalog data; the snapshot adds its small fixed header (status, manifest, policies).
  const published = Object.fromEntries(
    engine.catalogs().map((view) => [view.definition.snapshotField, view.entries()]),
  );
  return { engine, baseline: JSON.parse(JSON.stringify(published)) };
}

function time(work, iterations) {
  const start = performance.now();
  let bytes = 0;
  for (let i = 0; i < iterations; i++) bytes += work().length;
  return { ms: (performance.now() - start) / iterations, bytes: bytes / iterations };
}

const results = [];
for (const total of [1_000, 10_000, 100_000]) {
  const { engine, baseline } = setUp(total);
  const iterations = total >= 100_000 ? 5 : total >= 10_000 ? 20 : 100;
  const snapshotRuns = [];
  const baselineRuns = [];
  time(() => JSON.stringify(engine.snapshot()), 2);
  time(() => JSON.stringify(baseline), 2);
  for (let round = 0; round < 5; round++) {
    snapshotRuns.push(time(() => JSON.stringify(engine.snapshot()), iterations));
    baselineRuns.push(time(() => JSON.stringify(baseline), iterations));
  }
  const median = (runs) => runs.map((run) => run.ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const snapshotMs = median(snapshotRuns);
  const baselineMs = median(baselineRuns);
  results.push({
    total,
    snapshotMs,
    baselineMs,
    ratio: snapshotMs / baselineMs,
    microsecondsPerEntry: (snapshotMs * 1000) / total,
  });
}

console.log('entries  snapshot(ms)  JSON.stringify(ms)  ratio  µs/entry (snapshot)');
for (const row of results) {
  console.log(
    `${String(row.total).padStart(7)}  ${row.snapshotMs.toFixed(2).padStart(12)}  ${row.baselineMs.toFixed(2).padStart(18)}  ${row.ratio.toFixed(2).padStart(5)}  ${row.microsecondsPerEntry.toFixed(3).padStart(8)}`,
  );
}
const worst = Math.max(...results.map((row) => row.ratio));
const growth = results[2].microsecondsPerEntry / results[0].microsecondsPerEntry;
console.log(
  `worst ratio ${worst.toFixed(2)} (target <= 2.00: ${worst <= 2 ? 'met' : 'NOT met'}); per-entry cost 100k/1k = ${growth.toFixed(2)} (1.0 = linear)`,
);
