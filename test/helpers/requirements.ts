import { existsSync } from 'node:fs';

/**
 * Tests that need a part of the machine (PostgreSQL, Chromium). CI (CI=true) must run every one of them, so
 * there a missing part FAILS the tests that need it; on a developer's machine those tests are skipped, and
 * jest.global-setup.js says once per run which part is missing.
 */
export const inCI = !!process.env.CI && process.env.CI !== 'false';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM_PATH);

export const postgres = {
  available: !!process.env.TEST_DATABASE_URL,
  missing: 'PostgreSQL: TEST_DATABASE_URL is not set',
};
export const chromium = { available: haveChromium, missing: `Chromium: ${CHROMIUM_PATH} not found` };

type Part = typeof postgres;

/** `describe` when the part is there; else a failing test under CI, a visible skip elsewhere. */
export function describeWith(part: Part, name: string, body: () => void): void {
  if (part.available) {
    describe(name, body);
    return;
  }
  if (inCI) {
    test(`${name}: needs ${part.missing}`, () => {
      throw new Error(`${part.missing}; CI runs every test, so this one fails instead of being skipped`);
    });
    return;
  }
  // The run's notice (jest.global-setup.js) names the missing part.
  describe.skip(name, body);
}

/**
 * For a check inside a test: true when the part is there; under CI a missing part throws (the test fails);
 * elsewhere it returns false (the run's notice says what is missing), and the test ends there.
 */
export function partAvailable(part: Part, what: string): boolean {
  if (part.available) return true;
  if (inCI) throw new Error(`${part.missing}: ${what} cannot run, and CI runs everything`);
  return false;
}
