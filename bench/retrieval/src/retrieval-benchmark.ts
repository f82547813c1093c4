import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { miniSearchDirect, oramaDirect, type Measured } from './libraries';
import { packRun } from './pack';
import { postgresBare, postgresPack } from './postgres';
import { documents, queries } from './workload';

const count = Number(process.env.BENCH_DOCUMENTS ?? 100_000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 1000);
const postgresCount = Number(process.env.BENCH_POSTGRES_DOCUMENTS ?? count);
const libraryCount = Number(process.env.BENCH_LIBRARY_DOCUMENTS ?? count);
const libraryQueries = Number(process.env.BENCH_LIBRARY_QUERIES ?? queryCount);
const url = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const maxResults = 10;
const sections = new Set((process.env.BENCH_SECTIONS ?? 'libraries,pack,postgres').split(','));

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
const row = (item: Measured) =>
  `| ${item.name} | ${format(item.indexMs)} | ${format(item.queryP50Ms)} | ${format(item.queryP95Ms)} |`;
const ratio = (a: number, b: number) => (a / b).toFixed(2);

async function main() {
  const docs = documents(count);
  const words = queries(queryCount);
  const blocks = new Map<string, string[]>();
  let lines: string[] = [];
  const table = (title: string, items: Measured[]) => {
    lines.push(
      `**${title}**`,
      '',
      '| run | index (ms) | query p50 (ms) | query p95 (ms) |',
      '| --- | --- | --- | --- |',
    );
    lines.push(...items.map(row), '');
  };
  if (sections.has('libraries')) {
    lines = [];
    blocks.set('libraries', lines);
    const libraryDocs = docs.slice(0, libraryCount);
    const libraryWords = words.slice(0, libraryQueries);
    // Warm both libraries up on a slice first, so neither pays for JIT compilation in the measured run.
    await miniSearchDirect(docs.slice(0, 5000), words.slice(0, 50), maxResults);
    await oramaDirect(docs.slice(0, 5000), words.slice(0, 50), maxResults);
    const mini = await miniSearchDirect(libraryDocs, libraryWords, maxResults);
    const orama = await oramaDirect(libraryDocs, libraryWords, maxResults);
    table(`Libraries, ${libraryDocs.length} documents, ${libraryWords.length} queries`, [mini, orama]);
    lines.push(
      `Orama / MiniSearch: index ${ratio(orama.indexMs, mini.indexMs)}x, query p50 ${ratio(orama.queryP50Ms, mini.queryP50Ms)}x`,
      '',
    );
  }
  if (sections.has('pack')) {
    lines = [];
    blocks.set('pack', lines);
    // Alternate twice so warm-up favours neither; keep the second round.
    await miniSearchDirect(docs.slice(0, 5000), words.slice(0, 50), maxResults);
    await packRun('warm-up', docs.slice(0, 5000), words.slice(0, 50), maxResults);
    const direct = await miniSearchDirect(docs, words, maxResults);
    const pack = await packRun('pack, in-process provider', docs, words, maxResults);
    table(`Pack vs MiniSearch called directly, ${count} documents, ${queryCount} queries`, [direct, pack]);
    lines.push(
      `**pack / direct: indexing ${ratio(pack.indexMs, direct.indexMs)}x, query p50 ${ratio(pack.queryP50Ms, direct.queryP50Ms)}x** (target ≤ 1.2x each)`,
      '',
    );
  }
  if (sections.has('postgres')) {
    lines = [];
    blocks.set('postgres', lines);
    const pgDocs = docs.slice(0, postgresCount);
    // Warm-up round on a slice (connections, plans), then the measured pair.
    await postgresBare(url, 'knowledge_bench_bare', pgDocs.slice(0, 2000), words.slice(0, 50), maxResults);
    await postgresPack(url, 'knowledge_bench_pack', pgDocs.slice(0, 2000), words.slice(0, 50), maxResults);
    const bare = await postgresBare(url, 'knowledge_bench_bare', pgDocs, words, maxResults);
    const pack = await postgresPack(url, 'knowledge_bench_pack', pgDocs, words, maxResults);
    table(`PostgreSQL provider vs the same SQL run bare, ${pgDocs.length} documents, ${queryCount} queries`, [
      bare,
      pack,
    ]);
    lines.push(
      `**pack / bare SQL: indexing ${ratio(pack.indexMs, bare.indexMs)}x, query p50 ${ratio(pack.queryP50Ms, bare.queryP50Ms)}x**`,
      '',
    );
  }
  const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md');
  let text = readFileSync(readme, 'utf8');
  const stamp = `Last run: ${new Date().toISOString().slice(0, 10)}, Node.js ${process.version}.`;
  for (const [section, sectionLines] of blocks) {
    const report = sectionLines.join('\n');
    console.log(report);
    const start = `<!-- retrieval-${section}:start -->`;
    const end = `<!-- retrieval-${section}:end -->`;
    if (!text.includes(start) || !text.includes(end) || process.env.BENCH_WRITE_README === 'false') continue;
    text =
      text.slice(0, text.indexOf(start) + start.length) +
      `\n${stamp}\n\n${report}\n` +
      text.slice(text.indexOf(end));
  }
  if (process.env.BENCH_WRITE_README !== 'false') {
    writeFileSync(readme, text);
    console.log(`results written to ${readme}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
