import { z } from 'zod';

/**
 * The one place that reads the environment. Every setting is validated here so a bad value stops the
 * start with one line naming the variable, instead of failing later in some request.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres|postgresql|sqlite|file):/.test(v) || !v.includes('://'), {
      message: 'must be a postgres:// URL, a sqlite: URL or a file path',
    })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(0).max(500).optional(),
  ADMIN_TOKEN: z
    .string()
    .min(32, { message: 'is too weak: use at least 32 characters (or leave it unset to generate one)' })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: z.string().default('loopback'),

  BODY_LIMIT_MB: positiveInt.default(25),
  MAX_PAGES_PER_REQUEST: positiveInt.default(10_000),
  MAX_ISSUES_PER_REQUEST: positiveInt.default(200_000),
  MAX_PAGES_PER_SCAN: positiveInt.default(100_000),
  MAX_ISSUES_PER_SCAN: positiveInt.default(2_000_000),
  MAX_OPEN_SCANS_PER_ORG: positiveInt.default(100),
  MAX_REVIEW_REQUEST_KB: positiveInt.default(512),
  MAX_VERSIONS_PER_REPORT: positiveInt.default(200),
  MAX_SESSIONS_PER_KEY: positiveInt.default(20),
  MAX_KEYS_PER_ORG: positiveInt.default(200),
  MAX_WEBHOOKS_PER_ORG: positiveInt.default(50),
  MAX_WAIVERS_PER_ORG: positiveInt.default(10_000),
  MAX_SITES_PER_ORG: positiveInt.default(1_000),
  WEBHOOK_PINGS_PER_MINUTE: positiveInt.default(10),
  MAX_ISSUE_HTML_BYTES: positiveInt.default(65_536),
  OPEN_SCAN_TTL_HOURS: z.coerce.number().positive().default(24),
  RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
  AUTH_FAILURES_PER_MINUTE: positiveInt.default(20),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  HEADERS_TIMEOUT_MS: positiveInt.default(30_000),
  REQUEST_TIMEOUT_MS: positiveInt.default(120_000),
  WRITE_CONCURRENCY: positiveInt.default(1),
  WRITE_QUEUE_WAIT_MS: positiveInt.default(60_000),

  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_SECRET_KEY: z.string().min(32).optional(),
  WEBHOOK_WORKER: bool.default(true),
  WEBHOOK_POLL_MS: positiveInt.default(1000),

  SCREENSHOT_URL_KEY: z.string().min(32).optional(),
  SCREENSHOT_URL_TTL_HOURS: z.coerce.number().positive().max(8760).default(720),

  APP_ID: z.string().regex(/^\d+$/, { message: 'must be the numeric GitHub App id' }).optional(),
  PRIVATE_KEY: z.string().optional(),
  PRIVATE_KEY_PATH: z.string().optional(),
  WEBHOOK_SECRET: z.string().optional(),
  GHE_HOST: z.string().optional(),
  GHE_PROTOCOL: z.enum(['http', 'https']).optional(),
  GITHUB_API_URL: z.url().optional(),
  /** Deadline of each GitHub API request made for a check run (the GitHub App). */
  GITHUB_TIMEOUT_MS: positiveInt.default(15_000),
  /** Single-tenant servers: every installation of the App belongs to this org. */
  GITHUB_INSTALLATIONS_ORG: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, { message: 'must be an org name (a-z, 0-9, ".", "_", "-")' })
    .optional(),
  /** The App's own OAuth credentials: "Sign in with GitHub" on the console (both or neither). */
  GITHUB_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, { message: 'must be the App client id' })
    .optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  /** How often a GitHub session asks GitHub again which repositories its user may read. */
  GITHUB_SIGN_IN_RECHECK_MINUTES: positiveInt.max(24 * 60).default(10),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `undefined` means the embedded SQLite file under dataDir. */
  databaseUrl?: string;
  /** PostgreSQL: connections per instance (10); SQLite: read connections beside the writer (4). */
  databasePoolSize?: number;
  adminToken?: string;
  logLevel: Env['LOG_LEVEL'];
  publicUrl?: string;
  trustProxy: string;
  limits: Limits;
  /** How long a scan sent in parts may stay open before it is removed. */
  openScanTtlMs: number;
  shutdownTimeoutMs: number;
  /** Slow-client guards: time to receive the headers, and the whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Scan submits, parts and gate triggers worked on at once per instance, and how long one may wait. */
  writeQueue: { concurrency: number; maxWaitMs: number };
  webhooks: {
    allowPrivate: boolean;
    secretKey?: string;
    worker: boolean;
    pollMs: number;
  };
  /** Signed links to element screenshots: the key (else derived from the webhook secret key) and their life. */
  screenshots: { urlKey?: string; urlTtlMs: number };
  github: {
    appId?: string;
    privateKey?: string;
    privateKeyPath?: string;
    webhookSecret?: string;
    /** Base URL of the GitHub REST API (GitHub Enterprise Server or a test fake). */
    apiUrl?: string;
    /** Deadline of each GitHub API request the check-run publisher makes. */
    timeoutMs: number;
    /** Every installation belongs to this org (single tenant); otherwise links are stored per installation. */
    installationsOrg?: string;
    /** "Sign in with GitHub": set when both the client id and secret are. */
    signIn?: GitHubSignIn;
  };
}

export interface GitHubSignIn {
  clientId: string;
  clientSecret: string;
  /** Where people sign in to GitHub (github.com, or the GitHub Enterprise Server host). */
  webUrl: string;
  /** The REST API the user's token is used on. */
  apiUrl: string;
  recheckMs: number;
}

/** Every limit on what a tenant can make grow; published by `publishedLimits` (http/openapi.ts). */
export interface Limits {
  bodyBytes: number;
  /** One request's pages and issues (a whole scan, or one part). */
  pagesPerRequest: number;
  issuesPerRequest: number;
  /** A scan's pages and issues, all its parts together. */
  pagesPerScan: number;
  issuesPerScan: number;
  issueHtmlBytes: number;
  openScansPerOrg: number;
  reviewRequestBytes: number;
  versionsPerReport: number;
  /** Console sessions signed in with one key at once: a new one ends the oldest. */
  sessionsPerKey: number;
  keysPerOrg: number;
  webhooksPerOrg: number;
  /** Waivers not revoked (active or expired but kept). */
  waiversPerOrg: number;
  sitesPerOrg: number;
  requestsPerMinute: number;
  authFailuresPerMinute: number;
  pingsPerMinutePerWebhook: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset: that is how most CI systems pass an absent secret.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`${name} ${issue.message}`);
  }
  const e = parsed.data;
  const apiUrl =
    e.GITHUB_API_URL ?? (e.GHE_HOST ? `${e.GHE_PROTOCOL ?? 'https'}://${e.GHE_HOST}/api/v3` : undefined);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    adminToken: e.ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    limits: {
      bodyBytes: e.BODY_LIMIT_MB * 1024 * 1024,
      // A request never carries more than the scan may hold.
      pagesPerRequest: Math.min(e.MAX_PAGES_PER_REQUEST, e.MAX_PAGES_PER_SCAN),
      issuesPerRequest: Math.min(e.MAX_ISSUES_PER_REQUEST, e.MAX_ISSUES_PER_SCAN),
      pagesPerScan: e.MAX_PAGES_PER_SCAN,
      issuesPerScan: e.MAX_ISSUES_PER_SCAN,
      issueHtmlBytes: e.MAX_ISSUE_HTML_BYTES,
      openScansPerOrg: e.MAX_OPEN_SCANS_PER_ORG,
      reviewRequestBytes: e.MAX_REVIEW_REQUEST_KB * 1024,
      versionsPerReport: e.MAX_VERSIONS_PER_REPORT,
      sessionsPerKey: e.MAX_SESSIONS_PER_KEY,
      keysPerOrg: e.MAX_KEYS_PER_ORG,
      webhooksPerOrg: e.MAX_WEBHOOKS_PER_ORG,
      waiversPerOrg: e.MAX_WAIVERS_PER_ORG,
      sitesPerOrg: e.MAX_SITES_PER_ORG,
      requestsPerMinute: e.RATE_LIMIT_PER_MINUTE,
      authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
      pingsPerMinutePerWebhook: e.WEBHOOK_PINGS_PER_MINUTE,
    },
    openScanTtlMs: Math.round(e.OPEN_SCAN_TTL_HOURS * 3_600_000),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    // A queued write must be refused (503, retry) before the request timeout would cut it off.
    writeQueue: {
      concurrency: e.WRITE_CONCURRENCY,
      maxWaitMs: Math.min(e.WRITE_QUEUE_WAIT_MS, Math.floor(e.REQUEST_TIMEOUT_MS / 2)),
    },
    webhooks: {
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      secretKey: e.WEBHOOK_SECRET_KEY,
      worker: e.WEBHOOK_WORKER,
      pollMs: e.WEBHOOK_POLL_MS,
    },
    screenshots: {
      urlKey: e.SCREENSHOT_URL_KEY,
      urlTtlMs: Math.round(e.SCREENSHOT_URL_TTL_HOURS * 3_600_000),
    },
    github: {
      appId: e.APP_ID,
      privateKey: e.PRIVATE_KEY,
      privateKeyPath: e.PRIVATE_KEY_PATH,
      webhookSecret: e.WEBHOOK_SECRET,
      apiUrl,
      timeoutMs: e.GITHUB_TIMEOUT_MS,
      installationsOrg: e.GITHUB_INSTALLATIONS_ORG,
      signIn: signInConfig(e, apiUrl),
    },
  };
}

function signInConfig(e: Env, apiUrl: string | undefined): GitHubSignIn | undefined {
  if (!e.GITHUB_CLIENT_ID && !e.GITHUB_CLIENT_SECRET) return undefined;
  if (!e.GITHUB_CLIENT_ID || !e.GITHUB_CLIENT_SECRET) {
    throw new ConfigError('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together');
  }
  return {
    clientId: e.GITHUB_CLIENT_ID,
    clientSecret: e.GITHUB_CLIENT_SECRET,
    webUrl: e.GHE_HOST ? `${e.GHE_PROTOCOL ?? 'https'}://${e.GHE_HOST}` : 'https://github.com',
    apiUrl: (apiUrl ?? 'https://api.github.com').replace(/\/+$/, ''),
    recheckMs: e.GITHUB_SIGN_IN_RECHECK_MINUTES * 60_000,
  };
}

export function githubAppConfigured(config: Config): boolean {
  const g = config.github;
  return Boolean(g.appId && (g.privateKey || g.privateKeyPath) && g.webhookSecret);
}
