import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; tools/ci/services.sh installs it when missing). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * True when the browser tests can run. Under CI=true a missing Chromium is a failure, never a skip: the caller
 * throws; elsewhere the suite is skipped with a message saying how to install it.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env.CI === 'true') {
    throw new Error(
      `CI=true and no Chromium at ${chromiumPath}: run tools/ci/services.sh (apt-get install chromium)`,
    );
  }
  process.stderr.write(
    `console browser tests skipped: no Chromium at ${chromiumPath} (apt-get install chromium)\n`,
  );
  return false;
}

/** Headless Chromium with no background networking (this machine's network is closed). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

const axeSource = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: ReadonlyArray<{ readonly target: readonly unknown[] }>;
}

/**
 * Runs axe-core in the page and answers its serious and critical violations. The script is evaluated through
 * the DevTools protocol, which the page's CSP does not govern, so the CSP under test stays untouched.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
