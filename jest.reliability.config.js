import { base } from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/reliability/**/*.test.ts'],
  testTimeout: 180000,
};
