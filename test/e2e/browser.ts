/**
 * What the browser suites share: Debian's Chromium through playwright-core, started the way the
 * project's guide says, and the rule that a missing browser skips the suite with its reason on a
 * developer machine but fails it under CI.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
/** Whether a suite runs: with Chromium, or under CI where a missing one must fail the run. */
export const runBrowserSuites = haveChromium || !!process.env.CI;

if (!haveChromium && !process.env.CI) {
  console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium). Under CI this fails instead.`);
}

export function launchChromium(): Promise<Browser> {
  if (!haveChromium) throw new Error(`${CHROMIUM} is required for the e2e tests (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}
