import { randomBytes } from 'node:crypto';
import type { CreatedScan } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds } from '../helpers/harness.js';
import { describeWith, postgres } from '../helpers/requirements.js';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';
import { sleep } from '../helpers/wait.js';
import { APP_ID, PRIVATE_KEY_PEM, WEBHOOK_SECRET } from '../fixtures/github/test-app.js';
import { FakeGitHub } from '../fixtures/github/fake-github.js';

/**
 * A deploy decision reaches GitHub through its outbox row: the server process is SIGKILLed right after
 * the trigger answered 201, before anything was posted, and started again on the same data; the check run
 * and the pull request comment then appear exactly once. GitHub is a fake HTTP server on loopback that
 * counts what is written; the App is configured from the environment as `npm start` reads it.
 */

const REPOSITORY = 'acme/shop';

/** The App's environment, its GitHub the fake; a delivery worker that looks every `pollMs`. */
function appEnv(github: FakeGitHub, pollMs: number): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    APP_ID: String(APP_ID),
    PRIVATE_KEY: PRIVATE_KEY_PEM,
    WEBHOOK_SECRET,
    GITHUB_API_URL: github.url,
    GITHUB_INSTALLATIONS_ORG: 'acme',
    GITHUB_TIMEOUT_MS: '5000',
    WEBHOOK_WORKER: 'true',
    WEBHOOK_POLL_MS: String(pollMs),
    RATE_LIMIT_PER_MINUTE: '100000',
  };
}

/** A worker that never looks again within a test: the process stands for one killed before it posts. */
const NEVER = 3_600_000;

async function call<T>(server: ServerProcess, key: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A head scan of `sha` with one new critical issue, and the gate asked for pull request `pr`. */
async function gate(server: ServerProcess, key: string, sha: string, pr: number): Promise<DeployEvent> {
  await call<CreatedScan>(server, key, '/api/v1/scans', {
    url: 'https://shop.example/',
    siteId: 'shop',
    sha,
    branch: `feature/${pr}`,
    pages: [{ url: '/', issues: [{ rule: 'image-alt', impact: 'critical', selector: `#hero-${pr}` }] }],
  });
  return call<DeployEvent>(server, key, '/api/v1/deploy/trigger', {
    siteId: 'shop',
    sha,
    repository: REPOSITORY,
    pull_request: pr,
  });
}

const shaOf = (n: number) => n.toString(16).padStart(40, 'a');

/** Waits until `done` holds (the fake GitHub's counts), failing with what it saw after `ms`. */
async function until(done: () => boolean, ms: number, what: () => unknown): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms: ${JSON.stringify(what())}`);
    await sleep(100);
  }
}

/**
 * Exactly one check run per deploy event and one comment per pull request, nothing more to come; when
 * they do not all appear, the failure shows what GitHub got and the servers' last warnings.
 */
async function expectPostedOnce(
  github: FakeGitHub,
  deploys: Array<{ id: string; pr: number }>,
  servers: ServerProcess[],
) {
  const posted = () =>
    deploys.every((d) => github.runsOf(d.id).length > 0 && github.commentsOn(REPOSITORY, d.pr).length > 0);
  await until(posted, 60_000, () => ({
    got: deploys.map((d) => [d.pr, github.runsOf(d.id).length, github.commentsOn(REPOSITORY, d.pr).length]),
    logs: servers.flatMap((s) => s.logs.filter((l) => /"level":[45]\d/.test(l)).slice(-5)),
  }));
  // Whatever else was still to come (a second instance, a retry) has had its chance.
  await sleep(1500);
  for (const d of deploys) {
    expect(github.runsOf(d.id)).toHaveLength(1);
    expect(github.runsOf(d.id)[0]).toMatchObject({ name: 'a11y-gate / shop', conclusion: 'failure' });
    expect(github.commentsOn(REPOSITORY, d.pr)).toHaveLength(1);
  }
}

describe.each(dbKinds)('GitHub publication survives SIGKILL (%s)', (db) => {
  let github: FakeGitHub;
  let database: FreshPgDatabase | undefined;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    github = new FakeGitHub();
    await github.start();
    if (db === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    // The restarted process first: the first one's data dir is removed with it.
    for (const s of servers.reverse()) await s.dispose();
    await github?.close();
    await database?.drop();
  });

  test('killed right after the trigger answered 201: after the restart, one check run and one comment', async () => {
    const adminToken = `adm_${randomBytes(24).toString('hex')}`;
    const first = new ServerProcess({ databaseUrl: database?.url, adminToken, env: appEnv(github, NEVER) });
    servers.push(first);
    await first.start();
    const { key } = await first.createKey('acme');
    const event = await gate(first, key, shaOf(1), 11);
    expect(event.check_run.status).toBe('pending');
    await first.kill();
    expect(github.checkRuns).toHaveLength(0);

    // The same data (the SQLite file, or the PostgreSQL database) and a worker that looks at once.
    const second = new ServerProcess({
      databaseUrl: database?.url,
      dataDir: first.dataDir,
      adminToken,
      env: appEnv(github, 100),
    });
    servers.push(second);
    await second.start();
    await expectPostedOnce(github, [{ id: event.id, pr: 11 }], servers);
    const after = await fetch(`${second.url}/api/v1/deploy/${event.id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(((await after.json()) as DeployEvent).check_run).toMatchObject({
      status: 'completed',
      id: github.runsOf(event.id)[0].id,
    });
  });
});

describeWith(postgres, 'GitHub publication with two instances on one PostgreSQL', () => {
  let github: FakeGitHub;
  let database: FreshPgDatabase;
  let instances: ServerProcess[] = [];

  beforeAll(async () => {
    github = new FakeGitHub();
    await github.start();
    database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    for (const s of instances) await s.dispose();
    await github?.close();
    await database?.drop();
  });

  test('one instance killed after its trigger, triggers on both: each check run and comment once', async () => {
    const adminToken = `adm_${randomBytes(24).toString('hex')}`;
    // The first never looks for deliveries before it is killed; the second's worker polls.
    instances = [NEVER, 100].map(
      (pollMs) => new ServerProcess({ databaseUrl: database.url, adminToken, env: appEnv(github, pollMs) }),
    );
    await Promise.all(instances.map((i) => i.start()));
    const { key } = await instances[0].createKey('acme');
    const killed = await gate(instances[0], key, shaOf(21), 21);
    await instances[0].kill();
    await instances[0].dispose();

    // The first again, now polling too: both instances claim from one queue.
    instances[0] = new ServerProcess({ databaseUrl: database.url, adminToken, env: appEnv(github, 100) });
    await instances[0].start();
    const more = await Promise.all(
      [22, 23, 24, 25].map(async (pr) => ({
        id: (await gate(instances[pr % 2], key, shaOf(pr), pr)).id,
        pr,
      })),
    );
    await expectPostedOnce(github, [{ id: killed.id, pr: 21 }, ...more], instances);
  });
});

describe('seven gate results at once on one repository', () => {
  let github: FakeGitHub;
  let server: ServerProcess;

  beforeAll(async () => {
    // The App's Octokit sends one write a second, as GitHub asks; each write takes GitHub a moment.
    github = new FakeGitHub({ writeDelayMs: 200 });
    await github.start();
  });
  afterAll(async () => {
    await server?.dispose();
    await github?.close();
  });

  test('every pull request gets its check run and its comment', async () => {
    // The default deadline of a GitHub request. The App's Octokit spaces comments 3 s apart: seven
    // publications at once, each waiting its turn, ran past it and gave up before they went through the outbox.
    server = new ServerProcess({ env: { ...appEnv(github, 100), GITHUB_TIMEOUT_MS: '15000' } });
    await server.start();
    const { key } = await server.createKey('acme');
    const deploys = await Promise.all(
      [31, 32, 33, 34, 35, 36, 37].map(async (pr) => ({
        id: (await gate(server, key, shaOf(pr), pr)).id,
        pr,
      })),
    );
    await expectPostedOnce(github, deploys, [server]);
  });
});
