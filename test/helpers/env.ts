import { CHROMIUM_PATH, inCI } from './requirements.js';

// Tests never reach GitHub or a developer's configuration by accident.
for (const name of [
  'APP_ID',
  'PRIVATE_KEY',
  'PRIVATE_KEY_PATH',
  'WEBHOOK_SECRET',
  'DATABASE_URL',
  'ADMIN_TOKEN',
]) {
  delete process.env[name];
}
process.env.LOG_LEVEL ??= 'silent';

/*
 * A part of the machine that is missing on a developer's machine (PostgreSQL, Chromium) is announced once per
 * run by jest.global-setup.js; the notes each test file would print about it (harness.ts, requirements.ts
 * and a few files) are dropped here. Under CI nothing is dropped: there a missing part fails the tests.
 */
if (!inCI) {
  (globalThis as { __pgSkipNoted?: boolean }).__pgSkipNoted = true;
  const missing = ['TEST_DATABASE_URL is not set', `${CHROMIUM_PATH} not found`];
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    const first = args[0];
    if (typeof first === 'string' && first.includes('SKIPPED') && missing.some((m) => first.includes(m)))
      return;
    warn(...args);
  };
}
