/** Debian's Chromium, headless, driven by playwright-core (shared/reference/vscode-host.md, step 7). */
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Page errors and console errors, for the report when a step fails. */
  errors: string[];
}

/**
 * Launches Chromium with a fresh profile in `profileDir` (Playwright takes it as
 * an argument, never as `--user-data-dir`) and one page of `viewport` size.
 */
export async function launchBrowser(profileDir: string, viewport = { width: 1600, height: 1000 }): Promise<Browser> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}
