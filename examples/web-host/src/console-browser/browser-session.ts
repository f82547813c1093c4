import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium';

/** A page that records every request it makes and every CSP report the browser logs. */
export interface RecordedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly requests: string[];
  readonly cspReports: string[];
}

export interface PageOptions {
  readonly headers?: Record<string, string>;
  readonly dark?: boolean;
}

/**
 * One Chromium for a test file, each test in contexts of its own (closed by {@link closePages}, so cookies,
 * storage and open streams never leak from one test into the next).
 */
export class BrowserSession {
  private readonly contexts: BrowserContext[] = [];

  private constructor(readonly browser: Browser) {}

  static async launch(): Promise<BrowserSession> {
    return new BrowserSession(await launchChromium());
  }

  async open(options: PageOptions = {}): Promise<RecordedPage> {
    const context = await this.browser.newContext({
      extraHTTPHeaders: options.headers,
      colorScheme: options.dark ? 'dark' : 'light',
      viewport: { width: 1360, height: 900 },
    });
    this.contexts.push(context);
    const page = await context.newPage();
    // A wait that never comes fails with its own locator and line, well before the test's timeout would.
    page.setDefaultTimeout(20_000);
    const requests: string[] = [];
    const cspReports: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
    return { page, context, requests, cspReports };
  }

  /** Closes every context opened since the last call. */
  async closePages(): Promise<void> {
    for (const context of this.contexts.splice(0).reverse()) await context.close();
  }

  async close(): Promise<void> {
    await this.closePages();
    await this.browser.close();
  }
}
