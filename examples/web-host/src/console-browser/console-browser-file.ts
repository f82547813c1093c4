import type { Page } from 'playwright-core';
import { chromiumAvailable } from './chromium';
import { BrowserSession, type PageOptions, type RecordedPage } from './browser-session';
import { startConsoleSample, type ConsoleSample, type ConsoleSampleOptions } from './console-session';

export { seriousViolations } from './chromium';
export type { ConsoleSample, PageOptions, RecordedPage };

/** What a console browser test file shares: see {@link consoleBrowserFile}. */
export interface ConsoleBrowserFile {
  /** `describe` where Chromium is installed, `describe.skip` elsewhere (under CI=true a missing one throws). */
  readonly describe: jest.Describe;
  /** The file's Chromium (one per file). */
  readonly session: BrowserSession;
  /** The file's sample host (throws when the file asked for none). */
  readonly sample: ConsoleSample;
  /** A page in a context of its own (closed after the test). */
  open(options?: PageOptions): Promise<RecordedPage>;
  /** A page signed in through the console's sign-in form with `credential` (the operator token), on `/engine/console`. */
  openSignedIn(credential: string, options?: PageOptions): Promise<RecordedPage>;
  /** Stops the sample host and starts it again on the same folder and stores; `sample` is the new one after. */
  restartSample(): Promise<ConsoleSample>;
  /** Runs `action` after the current test, before its pages close (a proxy it started, a server...). */
  afterTest(action: () => Promise<void>): void;
}

export interface ConsoleBrowserFileOptions {
  /** The sample host of the file (`startConsoleSample`'s options); `false`: none, the file starts its own host. */
  readonly sample?: ConsoleSampleOptions | false;
  /** How long the file's set-up may take (Chromium and the host start side by side). Default 60 s. */
  readonly setUpTimeoutMs?: number;
}

/**
 * The set-up every console browser test file shares, registered with jest's hooks where it is called (at the
 * top of the file): one Chromium and (unless `sample: false`) one sample host for the file, started side by
 * side before its tests and closed after them; after each test, what it asked to clean up
 * ({@link ConsoleBrowserFile.afterTest}), then its pages (so cookies, storage and streams never leak into the
 * next test), and the fake upstreams put back to `up`.
 */
export function consoleBrowserFile(options: ConsoleBrowserFileOptions = {}): ConsoleBrowserFile {
  const available = chromiumAvailable();
  let session: BrowserSession | undefined;
  let sample: ConsoleSample | undefined;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (!available) return;
    [session, sample] = await Promise.all([
      BrowserSession.launch(),
      options.sample === false ? undefined : startConsoleSample(options.sample),
    ]);
  }, options.setUpTimeoutMs ?? 60_000);
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await session?.closePages();
    sample?.resetUpstreams();
  });
  afterAll(async () => {
    await session?.close();
    await sample?.close();
  });

  const file: ConsoleBrowserFile = {
    describe: available ? describe : describe.skip,
    get session() {
      if (!session) throw new Error('the browser is not launched yet (use it inside a test)');
      return session;
    },
    get sample() {
      if (!sample) throw new Error('this file has no sample host (consoleBrowserFile({ sample: false }))');
      return sample;
    },
    open: (pageOptions) => file.session.open(pageOptions),
    async openSignedIn(credential, pageOptions) {
      const opened = await file.open(pageOptions);
      await opened.page.goto(`${file.sample.base}/engine/console`);
      await signIn(opened.page, credential);
      await opened.page.locator('.session-bar').waitFor();
      return opened;
    },
    async restartSample() {
      sample = await file.sample.restart();
      return sample;
    },
    afterTest: (action) => {
      cleanups.push(action);
    },
  };
  return file;
}

/** Fills the console's sign-in form (the page the browser was sent to) with `credential` and sends it. */
export async function signIn(page: Page, credential: string): Promise<void> {
  await page.getByLabel('Operator token').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
