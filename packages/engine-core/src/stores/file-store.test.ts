import { spawn } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { manualClock } from '../clock';
import { isIntactCrashTestValue, type CrashTestValue } from './crash-test-value';
import { FileStoreProvider } from './file-store';
import { describeStoreContract } from '@corekit/testing/store-contract-suite';

const directories: string[] = [];
async function freshDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'corekit-file-store-'));
  directories.push(directory);
  return directory;
}
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

describeStoreContract('FileStoreProvider', async (options) => {
  return new FileStoreProvider({ ...options, directory: await freshDirectory() });
});

async function codeOf(action: Promise<unknown>): Promise<string | undefined> {
  return action.then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
}

describe('FileStoreProvider persistence', () => {
  it('says what it is: file, durable, not shared', async () => {
    const provider = new FileStoreProvider({ directory: await freshDirectory() });
    expect(provider).toMatchObject({ kind: 'file', durable: true, shared: false });
  });

  it('keeps records, versions and expiry across a new provider on the same directory', async () => {
    const directory = await freshDirectory();
    const clock = manualClock(Date.parse('2026-03-01T10:00:00Z'));
    const first = new FileStoreProvider({ directory, clock });
    const store = first.open<{ name: string }>('tenants');
    await store.put('t1', { name: 'one' });
    await store.put('t1', { name: 'one, renamed' });
    await store.put('lease', { name: 'holder' }, { ttlMs: 60_000 });
    await first.close();
    expect(existsSync(path.join(directory, 'tenants.json'))).toBe(true);
    expect(await readdir(directory)).toEqual(['tenants.json']);

    clock.advance(30_000);
    const reopened = new FileStoreProvider({ directory, clock }).open<{ name: string }>('tenants');
    expect(await reopened.get('t1')).toEqual({
      key: 't1',
      value: { name: 'one, renamed' },
      version: 2,
      updatedAtUtc: '2026-03-01T10:00:00.000Z',
    });
    expect((await reopened.get('lease'))?.value).toEqual({ name: 'holder' });
    clock.advance(30_000);
    const later = new FileStoreProvider({ directory, clock }).open('tenants');
    expect(await later.get('lease')).toBeUndefined();
    expect(await later.count()).toBe(1);
  });

  it('refuses a corrupt file with STORE_CORRUPT naming it, and leaves the file as it was', async () => {
    const directory = await freshDirectory();
    const file = path.join(directory, 'ledger.json');
    for (const text of [
      '{"format":"corekit-keyed-store/1","records":[{"key":"a","val',
      '',
      '{"records":[]}',
    ]) {
      await writeFile(file, text);
      const store = new FileStoreProvider({ directory }).open('ledger');
      const error = await store.get('a').then(
        () => undefined,
        (caught: Error & { code?: string }) => caught,
      );
      expect(error?.code).toBe('STORE_CORRUPT');
      expect(error?.message).toContain(file);
      expect(await codeOf(store.put('a', 1))).toBe('STORE_CORRUPT');
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it('refuses values JSON would change with STORE_VALUE_INVALID; drops undefined properties as JSON does', async () => {
    const store = new FileStoreProvider({ directory: await freshDirectory() }).open<unknown>('values');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const value of [new Date(), new Map(), Number.NaN, 10n, { at: Infinity }, [undefined], cycle]) {
      expect(await codeOf(store.put('v', value))).toBe('STORE_VALUE_INVALID');
    }
    const shared = { x: 1 };
    await store.put('v', { a: undefined, b: [shared, shared], c: null });
    expect((await store.get('v'))?.value).toEqual({ b: [{ x: 1 }, { x: 1 }], c: null });
  });

  it('ignores and removes temporary files a killed writer left behind', async () => {
    const directory = await freshDirectory();
    const writer = new FileStoreProvider({ directory }).open<number>('jobs');
    await writer.put('a', 1);
    const deadPid = 2 ** 22 + 7; // above Linux's pid_max: no process can have it
    const leftover = path.join(directory, `jobs.json.${deadPid}.0a1b2c.tmp`);
    const otherStore = path.join(directory, `jobsx.json.${deadPid}.0a1b2c.tmp`);
    await writeFile(leftover, '{"format":"corekit-keyed-store/1","records":[{"key":"a","value":');
    await writeFile(otherStore, 'not ours');
    const reader = new FileStoreProvider({ directory }).open<number>('jobs');
    expect(await reader.get('a')).toMatchObject({ value: 1, version: 1 });
    expect((await readdir(directory)).sort()).toEqual(['jobs.json', path.basename(otherStore)]);
  });
});

interface WriterRun {
  readonly acknowledged: number;
}

/**
 * Starts the crash writer and, once it has written at least once, kills it with SIGKILL: at a random moment,
 * or (`onFileEvent`) as soon as the directory reports activity, so the kill lands inside a file write.
 */
function runAndKill(directory: string, onFileEvent: boolean): Promise<WriterRun> {
  const child = spawn(process.execPath, [path.join(__dirname, 'crash-writer.fixture.cjs')], {
    env: { ...process.env, STORE_DIRECTORY: directory },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let acknowledged = 0;
  let stdout = '';
  let stderr = '';
  let killTimer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const kill = () => child.kill('SIGKILL');
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const lines = stdout.split('\n');
    stdout = lines.pop() ?? '';
    for (const line of lines) acknowledged = Math.max(acknowledged, Number(line.replace('wrote ', '')));
    if (acknowledged === 0 || killTimer || watcher) return;
    if (onFileEvent) watcher = watch(directory, kill);
    else killTimer = setTimeout(kill, 20 + Math.floor(Math.random() * 200));
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      watcher?.close();
      if (signal !== 'SIGKILL')
        reject(new Error(`writer exited with ${code ?? signal} before the kill: ${stderr}`));
      else resolve({ acknowledged });
    });
  });
}

describe('FileStoreProvider crash safety (child process, SIGKILL)', () => {
  it('after every SIGKILL mid-loop, a fresh provider reads a complete record: the last acknowledged or the next', async () => {
    const directory = await freshDirectory();
    for (let round = 0; round < 8; round++) {
      const before =
        (await new FileStoreProvider({ directory }).open<CrashTestValue>('crash').get('big'))?.value.seq ?? 0;
      const run = await runAndKill(directory, round % 2 === 0);
      expect(run.acknowledged).toBeGreaterThan(before);
      const record = await new FileStoreProvider({ directory }).open<CrashTestValue>('crash').get('big');
      expect(record).toBeDefined();
      expect(isIntactCrashTestValue(record!.value)).toBe(true);
      expect(record!.value.seq).toBeGreaterThanOrEqual(run.acknowledged);
      expect(record!.value.seq).toBeLessThanOrEqual(run.acknowledged + 1);
      expect(record!.version).toBe(record!.value.seq);
      expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }
  }, 120_000);
});
