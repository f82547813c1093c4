import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sampleRoot } from './sample-host';

// docs/architecture.md answers "where is X?" with a file and a symbol to look for. This keeps every answer true:
// each file named in its tables exists, and each still holds the symbol the row names.

const repositoryRoot = path.resolve(sampleRoot, '../..');
const map = readFileSync(path.join(repositoryRoot, 'docs/architecture.md'), 'utf8');

interface MapRow {
  readonly question: string;
  readonly file: string;
  readonly symbol: string;
}

/** The rows of the map's tables whose second cell is a file path in backticks and third a symbol in backticks. */
function mapRows(markdown: string): MapRow[] {
  const rows: MapRow[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5) continue;
    const file = /^`([^`]+)`$/.exec(cells[2])?.[1];
    const symbol = /^`([^`]+)`$/.exec(cells[3])?.[1];
    if (file && symbol) rows.push({ question: cells[1], file, symbol });
  }
  return rows;
}

const rows = mapRows(map);

it('names a file and a symbol for every common question, and the seam suites', () => {
  expect(rows.length).toBeGreaterThanOrEqual(30);
  const questions = rows.map((row) => row.question).join('\n');
  for (const asked of ['readiness', 'outbox message', 'tenant resource', 'console get'])
    expect(questions).toContain(asked);
});

it.each(rows.map((row) => [row.file, row.symbol] as const))('%s holds %s', (file, symbol) => {
  const absolute = path.join(repositoryRoot, file);
  expect(existsSync(absolute)).toBe(true);
  expect(readFileSync(absolute, 'utf8')).toContain(symbol);
});
