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
  testTimeout: 30000,
};

export default {
  ...base,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/reliability/'],
};

export { base };
