import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, createLogger, githubAppConfigured, loadConfig } from '../../api/index.js';
import { resolveAdminToken } from '../../api/admin-token.js';

describe('configuration', () => {
  test('defaults need no environment at all', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.limits).toEqual({
      bodyBytes: 25 * 1024 * 1024,
      pagesPerRequest: 10_000,
      issuesPerRequest: 200_000,
      pagesPerScan: 100_000,
      issuesPerScan: 2_000_000,
      issueHtmlBytes: 65_536,
      openScansPerOrg: 100,
      reviewRequestBytes: 512 * 1024,
      versionsPerReport: 200,
      sessionsPerKey: 20,
      keysPerOrg: 200,
      webhooksPerOrg: 50,
      waiversPerOrg: 10_000,
      sitesPerOrg: 1_000,
      requestsPerMinute: 600,
      authFailuresPerMinute: 20,
      pingsPerMinutePerWebhook: 10,
    });
    expect(githubAppConfigured(c)).toBe(false);
  });

  test.each([
    [{ PORT: 'eighty' }, /^PORT /],
    [{ ADMIN_TOKEN: 'short' }, /^ADMIN_TOKEN is too weak/],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, /^RATE_LIMIT_PER_MINUTE /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL /],
    [{ APP_ID: 'my-app' }, /^APP_ID must be the numeric GitHub App id/],
    [{ WEBHOOK_ALLOW_PRIVATE: 'maybe' }, /^WEBHOOK_ALLOW_PRIVATE /],
  ])('a bad value stops the start with one line naming the variable: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (err) {
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  test('GitHub App mode needs all three of its variables; GHE_HOST sets the API base URL', () => {
    const c = loadConfig({
      APP_ID: '123',
      PRIVATE_KEY: 'k',
      WEBHOOK_SECRET: 's',
      GHE_HOST: 'ghe.example.com',
    });
    expect(githubAppConfigured(c)).toBe(true);
    expect(c.github.apiUrl).toBe('https://ghe.example.com/api/v3');
    expect(githubAppConfigured(loadConfig({ APP_ID: '123', PRIVATE_KEY: 'k' }))).toBe(false);
  });

  test('"Sign in with GitHub" takes both OAuth credentials, and signs in at GitHub Enterprise Server when set', () => {
    const both = { GITHUB_CLIENT_ID: 'Iv23liExample', GITHUB_CLIENT_SECRET: 'secret' };
    expect(loadConfig({}).github.signIn).toBeUndefined();
    expect(loadConfig(both).github.signIn).toEqual({
      clientId: 'Iv23liExample',
      clientSecret: 'secret',
      webUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
      recheckMs: 600_000,
    });
    expect(
      loadConfig({ ...both, GHE_HOST: 'ghe.example.com', GITHUB_SIGN_IN_RECHECK_MINUTES: '5' }).github.signIn,
    ).toMatchObject({
      webUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
      recheckMs: 300_000,
    });
    expect(() => loadConfig({ GITHUB_CLIENT_SECRET: 'secret' })).toThrow(ConfigError);
  });

  test('without ADMIN_TOKEN a strong token is generated into the data dir with mode 0600, then reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-admin-'));
    const logger = createLogger({ logLevel: 'silent' });
    const token = resolveAdminToken(undefined, dir, logger);
    expect(token.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'admin-token');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveAdminToken(undefined, dir, logger)).toBe(token);
    expect(resolveAdminToken('x'.repeat(40), dir, logger)).toBe('x'.repeat(40));
    fs.rmSync(dir, { recursive: true });
  });
});
