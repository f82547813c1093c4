import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  assertValidStoreName,
  defaultStoreMaxEntries,
  resolveStoreMaxEntries,
  storeChangeFeedVersion,
  type KeyedStore,
  type StoreOptions,
  type StoreProvider,
} from '@corekit/abstractions';
import { systemClock, type Clock } from '../clock';
import { CoreKeyedStore, type CoreBackend } from './core-keyed-store';
import { InProcessChangeFeed, inProcessFeedPath } from './in-process-change-feed';
import { KeyedCore } from './keyed-core';
import type { InProcessStoreProviderOptions } from './memory-store';
import { admitJson, decodeStoreFile, encodeStoreFile } from './store-file-format';

export interface FileStoreProviderOptions extends InProcessStoreProviderOptions {
  /** Absolute directory holding one `<name>.json` per store; created on the first write. */
  readonly directory: string;
}

/**
 * Stores kept in memory and persisted, on every write, to `<directory>/<name>.json` by an atomic replace
 * (temporary file, fsync, rename, fsync of the directory), so a crash at any moment leaves the previous or
 * the new file, never a partial one. Single process: two processes (or two providers) on one directory
 * overwrite each other's writes, and nothing here detects it; several replicas need a shared provider.
 * Each write rewrites the whole file, so it suits stores of thousands of small records, not large ones.
 */
export class FileStoreProvider implements StoreProvider {
  readonly kind = 'file';
  readonly durable = true;
  readonly shared = false;
  /** Changes are handed to the watchers of this provider instance in-process (`KeyedStore.watch`). */
  readonly changeFeed = { version: storeChangeFeedVersion, path: inProcessFeedPath };
  private readonly changes: InProcessChangeFeed;
  readonly directory: string;
  private readonly backends = new Map<string, FileBackend>();
  private readonly clock: Clock;
  private readonly defaultMaxEntries: number;

  constructor(options: FileStoreProviderOptions) {
    if (!path.isAbsolute(options.directory)) {
      throw new RangeError(`The store directory must be absolute, got ${options.directory}`);
    }
    this.directory = options.directory;
    this.clock = options.clock ?? systemClock;
    this.defaultMaxEntries = options.defaultMaxEntries ?? defaultStoreMaxEntries;
    this.changes = new InProcessChangeFeed(options.fullReadIntervalMs);
  }

  /** The file holding store `name`. */
  fileOf(name: string): string {
    assertValidStoreName(name);
    return path.join(this.directory, `${name}.json`);
  }

  open<T>(name: string, options?: StoreOptions): KeyedStore<T> {
    const file = this.fileOf(name);
    const maxEntries = resolveStoreMaxEntries(name, options, this.defaultMaxEntries);
    let backend = this.backends.get(name);
    if (!backend) {
      backend = new FileBackend(name, file, this.clock);
      this.backends.set(name, backend);
    }
    return new CoreKeyedStore<T>({
      name,
      backend,
      clock: this.clock,
      maxEntries,
      admit: admitJson,
      changes: this.changes,
    });
  }

  /** Waits for every queued write to reach the disk. */
  async close(): Promise<void> {
    await Promise.all([...this.backends.values()].map((backend) => backend.flush()));
  }
}

/** One store file: loaded once, then every write staged on a fork, persisted, and only then committed. */
class FileBackend implements CoreBackend {
  private committed: Promise<KeyedCore> | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly file: string,
    private readonly clock: Clock,
  ) {}

  read(): Promise<KeyedCore> {
    if (!this.committed) {
      const loading = this.load();
      // A failed load (a corrupt file) is retried by the next call, once an operator has dealt with it.
      loading.catch(() => {
        if (this.committed === loading) this.committed = undefined;
      });
      this.committed = loading;
    }
    return this.committed;
  }

  write<R>(mutate: (core: KeyedCore) => { readonly result: R; readonly changed: boolean }): Promise<R> {
    const run = this.chain.then(async () => {
      const staged = (await this.read()).fork();
      const { result, changed } = mutate(staged);
      if (changed) {
        await writeFileAtomically(this.file, encodeStoreFile(this.name, staged.live(this.clock.now())));
        this.committed = Promise.resolve(staged);
      }
      return result;
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  async flush(): Promise<void> {
    await this.chain;
  }

  private async load(): Promise<KeyedCore> {
    await removeLeftoverTemporaryFiles(this.file);
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new KeyedCore(this.name);
      throw error;
    }
    const now = this.clock.now();
    const entries = decodeStoreFile(this.file, text).filter(
      ([, entry]) => entry.expiresAtMs === undefined || now < entry.expiresAtMs,
    );
    return new KeyedCore(this.name, entries);
  }
}

const temporarySuffix = /^\.(\d+)\.[0-9a-f]+\.tmp$/;

/** Deletes `<file>.<pid>.<random>.tmp` files a killed process left behind; they are never read as the store. */
async function removeLeftoverTemporaryFiles(file: string): Promise<void> {
  const directory = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    const match = name.startsWith(base) ? temporarySuffix.exec(name.slice(base.length)) : null;
    if (match && !isRunning(Number(match[1]))) {
      await unlink(path.join(directory, name)).catch(() => undefined);
    }
  }
}

/** A temporary file of a live process (this one included) may be mid-write: it is left alone. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes `text` to a temporary file, fsyncs it, renames it over `file` and fsyncs the directory. */
async function writeFileAtomically(file: string, text: string): Promise<void> {
  const directory = path.dirname(file);
  await mkdir(directory, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}

async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is then as durable as they allow.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw error;
  } finally {
    await handle?.close();
  }
}
