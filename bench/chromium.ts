/**
 * Debian's Chromium through playwright-core, started with the flags this project runs it with
 * (headless, no sandbox, nothing phoning home). The browser tests and the UI benchmark share it.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  if (!haveChromium) throw new Error(`${CHROMIUM} is required (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}
