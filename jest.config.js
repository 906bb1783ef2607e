/** @type {import('jest').Config} */
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  setupFiles: ['<rootDir>/test/helpers/env.ts'],
  // Says once per run which parts of the machine are missing, so which tests are skipped.
  globalSetup: '<rootDir>/jest.global-setup.js',
  // Two workers share two cores with their browsers and databases: a slow turn is not a failure, a hang still is.
  testTimeout: 60000,
  // Jest 30 "soft"-deletes what a test file left on the global scope and warns when it is touched later;
  // nock's interceptors are, after the App's test files end. "off" keeps them, as Jest 29 did, without
  // the warning.
  testEnvironmentOptions: { globalsCleanup: 'off' },
  // ESM test files under vm modules are never freed within one process: a worker that has grown past this
  // is replaced between files. Jest also never runs in band with a limit set, so one process's heap cannot
  // fill up over the whole suite.
  workerIdleMemoryLimit: '1.5GB',
  // Most suites wait on Chromium, a database or a child process: one worker per core keeps both busy.
  maxWorkers: '100%',
};

export default {
  ...base,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
};

export { base };
