import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { githubAppConfigured, loadConfig } from '../../api/index.js';
import { describeWith } from '../helpers/requirements.js';
import { run } from './run.js';

/*
 * compose.yaml, the Caddyfile and .dockerignore as docs/deploy.md runs them. CI also runs `docker compose
 * config` where the Compose plugin exists (.ci/run); this test reads the file itself, so it runs everywhere.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  pull_policy?: string;
  restart?: string;
  environment?: Record<string, string>;
  secrets?: string[];
}
const compose = yaml.load(read('compose.yaml')) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
};
const services = compose.services;
const apps = ['app1', 'app2'];

/** Compose's interpolation of the forms the file uses: ${VAR}, ${VAR:-default}, ${VAR:?message}. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g,
    (_, name: string, op?: string, arg?: string) => {
      const value = env[name];
      if (value) return value;
      if (op === ':?') throw new Error(`${name}: ${arg}`);
      return op === ':-' ? (arg ?? '') : '';
    },
  );
}

const secret = (n: number) => String(n).repeat(40);
const dotEnv = {
  A11Y_HOST: 'a11y.example.com',
  POSTGRES_PASSWORD: 'pg-password',
  ADMIN_TOKEN: secret(1),
  WEBHOOK_SECRET_KEY: secret(2),
};
const appEnv = (name: string, env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(services[name].environment ?? {}).map(([k, v]) => [k, interpolate(v, env)]),
  );

test('every service restarts unless it was stopped', () => {
  expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'postgres', 'proxy']);
  for (const [name, service] of Object.entries(services))
    expect([name, service.restart]).toEqual([name, 'unless-stopped']);
});

test('one image, built once by app1 and run by both instances, never pulled', () => {
  const built = Object.entries(services).filter(([, s]) => s.build !== undefined);
  expect(built.map(([name]) => name)).toEqual(['app1']);
  expect(services.app1.build).toBe('.');
  for (const name of apps) {
    expect(services[name].image).toBe('a11y-gate:${TAG:-latest}');
    expect(services[name].pull_policy).toBe('never');
  }
  expect(interpolate(services.app2.image!, {})).toBe('a11y-gate:latest');
  expect(interpolate(services.app2.image!, { TAG: '1.4.2' })).toBe('a11y-gate:1.4.2');
});

test('both instances get the same settings, which the service accepts; the required ones are required', () => {
  expect(appEnv('app1', dotEnv)).toEqual(appEnv('app2', dotEnv));
  const config = loadConfig(appEnv('app1', dotEnv));
  expect(config.adminToken).toBe(dotEnv.ADMIN_TOKEN);
  expect(config.webhooks.secretKey).toBe(dotEnv.WEBHOOK_SECRET_KEY);
  expect(config.publicUrl).toBe('https://a11y.example.com');
  expect(config.databaseUrl).toBe('postgres://a11y:pg-password@postgres:5432/a11y');
  // Without the App's variables the API runs alone.
  expect(githubAppConfigured(config)).toBe(false);
  for (const name of Object.keys(dotEnv)) {
    const without = { ...dotEnv, [name]: '' };
    expect(() => appEnv('app1', without)).toThrow(`${name}: set ${name}`);
  }
});

test("the GitHub App's variables are wired, its private key from a file mounted as a secret", () => {
  for (const name of apps) expect(services[name].secrets).toEqual(['github_app_private_key']);
  expect(compose.secrets.github_app_private_key.file).toBe('${GITHUB_APP_PRIVATE_KEY_FILE:-/dev/null}');
  const env = appEnv('app1', { ...dotEnv, APP_ID: '123456', WEBHOOK_SECRET: 'hook-secret' });
  expect(env.PRIVATE_KEY_PATH).toBe('/run/secrets/github_app_private_key');
  const config = loadConfig(env);
  expect(config.github).toMatchObject({
    appId: '123456',
    webhookSecret: 'hook-secret',
    privateKeyPath: '/run/secrets/github_app_private_key',
  });
  expect(githubAppConfigured(config)).toBe(true);
});

test('"Sign in with GitHub" is off by default and on with the App\'s client id and secret', () => {
  expect(loadConfig(appEnv('app1', dotEnv)).github.signIn).toBeUndefined();
  const env = appEnv('app1', {
    ...dotEnv,
    GITHUB_CLIENT_ID: 'Iv23liExample',
    GITHUB_CLIENT_SECRET: 'client-secret',
  });
  expect(env).toEqual(
    appEnv('app2', { ...dotEnv, GITHUB_CLIENT_ID: 'Iv23liExample', GITHUB_CLIENT_SECRET: 'client-secret' }),
  );
  expect(loadConfig(env).github.signIn).toMatchObject({
    clientId: 'Iv23liExample',
    clientSecret: 'client-secret',
    webUrl: 'https://github.com',
    apiUrl: 'https://api.github.com',
  });
  expect(() => loadConfig(appEnv('app1', { ...dotEnv, GITHUB_CLIENT_ID: 'Iv23liExample' }))).toThrow(
    'GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together',
  );
});

test('the proxy gets the host, the upstreams and the TLS mode (acme unless A11Y_TLS says internal)', () => {
  const proxy = services.proxy.environment ?? {};
  expect(interpolate(proxy.UPSTREAMS, {})).toBe('app1:3000 app2:3000');
  expect(interpolate(proxy.A11Y_TLS, {})).toBe('acme');
  expect(interpolate(proxy.A11Y_TLS, { A11Y_TLS: 'internal' })).toBe('internal');
  expect(read('Caddyfile')).toMatch(/\(tls-internal\) \{\s*tls internal\s*\}/);
  expect(read('Caddyfile')).toContain('import tls-{$A11Y_TLS:acme}');
});

test('.dockerignore keeps .env and private keys out of the build context', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  expect(patterns).toEqual(expect.arrayContaining(['.env', '.env.*', '*.pem']));
});

const GENERATOR = `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

test("docs/deploy.md's secret generator makes a 43-character secret; its first key goes through the proxy", () => {
  const deploy = read('docs/deploy.md');
  expect(deploy).toContain(GENERATOR);
  const made = execFileSync('bash', ['-c', GENERATOR], { encoding: 'utf8' }).trim();
  expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(deploy).toMatch(/curl [^\n]*-X POST "https:\/\/\$A11Y_HOST\/api\/v1\/keys"/);
  expect(deploy).toContain('A11Y_TLS=internal');
});

const caddy = {
  available: fs.existsSync('/usr/bin/caddy'),
  missing: 'Caddy: /usr/bin/caddy not found (apt-get install caddy)',
};

describeWith(caddy, "the Caddyfile in Caddy's own parser", () => {
  const adapt = (tls?: string) =>
    run('caddy', ['adapt', '--config', path.join(root, 'Caddyfile'), '--adapter', 'caddyfile'], root, {
      PATH: process.env.PATH,
      HOME: root,
      A11Y_HOST: 'a11y.intranet.example',
      UPSTREAMS: 'app1:3000 app2:3000',
      ...(tls === undefined ? {} : { A11Y_TLS: tls }),
    });
  const issuers = (json: string) =>
    JSON.stringify((JSON.parse(json) as { apps: { tls?: unknown } }).apps.tls ?? null);

  test('A11Y_TLS=internal: certificates for the host from Caddy’s own CA; acme or unset: none of it', async () => {
    const internal = await adapt('internal');
    expect(internal.code).toBe(0);
    expect(issuers(internal.stdout)).toBe(
      JSON.stringify({
        automation: {
          policies: [{ subjects: ['a11y.intranet.example'], issuers: [{ module: 'internal' }] }],
        },
      }),
    );
    const acme = await adapt('acme');
    expect(acme.code).toBe(0);
    expect(issuers(acme.stdout)).toBe('null');
    expect(JSON.parse(acme.stdout)).toEqual(JSON.parse((await adapt()).stdout));
    expect(acme.stdout).toContain('"upstreams":[{"dial":"app1:3000"},{"dial":"app2:3000"}]');
    expect(acme.stdout).toContain('"uri":"/readyz"');
    const typo = await adapt('intern');
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toContain('tls-intern');
  });
});
