/**
 * The rule for the browser suites: without Chromium a suite is skipped with its reason on a
 * developer machine, but fails under CI (which installs it).
 */
import { CHROMIUM, haveChromium } from '../../bench/chromium';

export { launchChromium } from '../../bench/chromium';

/** Whether a suite runs: with Chromium, or under CI where a missing one must fail the run. */
export const runBrowserSuites = haveChromium || !!process.env.CI;

if (!haveChromium && !process.env.CI) {
  console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium). Under CI this fails instead.`);
}
