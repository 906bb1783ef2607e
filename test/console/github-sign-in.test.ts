import { jest } from '@jest/globals';
import nock from 'nock';
import { controlClock } from '../helpers/clock.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { ConsoleClient } from './client.js';
import { seedConsole, type Seeded } from './seed.js';
import {
  CLIENT_ID,
  codeExchange,
  readAuthorize,
  SIGN_IN_ENV,
  userApi,
  type FakeUser,
} from './github-user.js';

const INSTALLATION = 31337;
/** Can read the repository bound to the seeded site. */
const ada: FakeUser = {
  login: 'ada',
  token: 'ghu_AdaToken0000000000000000000000000',
  installations: { [INSTALLATION]: ['acme/shop-web', 'acme/other'] },
};
/** Can read only the docs site's repository. */
const bob: FakeUser = {
  login: 'bob',
  token: 'ghu_BobToken0000000000000000000000000',
  installations: { [INSTALLATION]: ['acme/docs'] },
};
/** Can read no bound repository at all. */
const eve: FakeUser = {
  login: 'eve',
  token: 'ghu_EveToken0000000000000000000000000',
  installations: { [INSTALLATION]: ['eve/own'] },
};

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(() => {
  jest.useRealTimers();
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

/** Starts the sign-in as the button does, and lets GitHub send the browser back with `code`. */
async function signInWithGitHub(c: ConsoleClient, user: FakeUser, next: string, code = `code-${user.login}`) {
  const started = await c.get(`/sign-in/github?next=${encodeURIComponent(next)}`);
  expect(started.status).toBe(303);
  const a = readAuthorize(started.location!);
  const seen: Array<Record<string, string>> = [];
  const exchange = codeExchange(
    { code, challenge: a.challenge, redirectUri: a.redirectUri, token: user.token },
    seen,
  );
  const api = userApi(user);
  const back = await c.get(`/sign-in/github/callback?code=${code}&state=${encodeURIComponent(a.state)}`);
  return { started, a, back, exchange, api, seen };
}

describe.each(dbKinds)('sign in with GitHub (%s)', (db) => {
  const h = useHarness({ db, env: SIGN_IN_ENV, logLevel: 'info' });
  let s: Seeded;
  let docsScanId: string;
  beforeAll(async () => {
    s = await seedConsole(h);
    const docs = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: s.key,
      body: {
        siteId: 'docs-web',
        url: 'https://docs.example/',
        sha: 'a'.repeat(40),
        branch: 'main',
        pages: [{ url: 'https://docs.example/', issues: [] }],
      },
    });
    expect(docs.status).toBe(201);
    docsScanId = docs.body.id;
    for (const [site, repository] of [
      ['shop-web', 'acme/shop-web'],
      ['docs-web', 'acme/docs'],
    ]) {
      const r = await h.request('PATCH', `/api/v1/sites/${site}`, { key: s.key, body: { repository } });
      expect(r.status).toBe(200);
    }
    const link = await h.request('POST', '/api/v1/github/installations', {
      admin: true,
      body: { installation_id: INSTALLATION, org: 'acme' },
    });
    expect(link.status).toBe(201);
  });

  test('the sign-in page offers GitHub; the button goes to GitHub with the client id, a state and an S256 challenge', async () => {
    const c = new ConsoleClient(h.url);
    const page = await c.get('/sign-in?next=%2Fscans%2Fx');
    expect(page.text).toContain('Sign in with GitHub');
    expect(page.text).toContain('href="/sign-in/github?next=%2Fscans%2Fx"');
    const started = await c.get('/sign-in/github?next=%2Fscans%2Fx');
    const a = readAuthorize(started.location!);
    expect(a).toMatchObject({
      origin: 'https://github.com',
      path: '/login/oauth/authorize',
      clientId: CLIENT_ID,
      redirectUri: `${h.url}/sign-in/github/callback`,
      method: 'S256',
    });
    expect(a.state).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(a.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The verifier stays with the browser (HttpOnly cookie), never in an address.
    expect(started.location).not.toContain('code_verifier');
    expect(c.cookie('a11y_github_sign_in')).toBeDefined();
  });

  test("a user who can read the site's repository sees its deploy page, read only", async () => {
    const c = new ConsoleClient(h.url);
    const { back, exchange, api, seen } = await signInWithGitHub(c, ada, `/deploys/${s.deployId}`);
    expect(back).toMatchObject({ status: 303, location: `/deploys/${s.deployId}` });
    expect(exchange.isDone() && api.isDone()).toBe(true);
    expect(seen[0]).toMatchObject({ client_id: CLIENT_ID, code: 'code-ada' });
    expect(c.cookie('a11y_github_sign_in')).toBeUndefined();
    const page = await c.get(`/deploys/${s.deployId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('ada · acme');
    expect(page.text).not.toContain('Waive this issue');
    expect((await c.get(`/scans/${s.headScanId}`)).status).toBe(200);
    expect((await c.get('/sites/shop-web')).status).toBe(200);
    const sites = await c.get('/');
    expect(sites.text).toContain('href="/sites/shop-web"');
    expect(sites.text).not.toContain('href="/sites/docs-web"');
    expect(sites.text).not.toContain('href="/portfolio"');
    // Only the granted site: the other site of the org, the org's page of every site, reports and another
    // org's deploy are not found.
    for (const path of [
      '/sites/docs-web',
      '/portfolio',
      `/scans/${docsScanId}`,
      `/reports/${s.reportId}`,
      `/deploys/${s.otherDeployId}`,
    ]) {
      expect([path, (await c.get(path)).status]).toEqual([path, 404]);
    }
    // Every form refuses the session, with its CSRF token and all, and nothing is stored.
    const csrf = ConsoleClient.csrfOf((await c.get('/sign-out')).text);
    const before = await h.db('waivers').count({ n: '*' });
    const waive = await c.post(`/deploys/${s.deployId}/waive`, {
      _csrf: csrf,
      fingerprint: s.failingFingerprint,
      reason: 'not ours',
    });
    expect(waive.status).toBe(403);
    expect(await h.db('waivers').count({ n: '*' })).toEqual(before);
    const settings = await c.post('/sites/shop-web/settings', { _csrf: csrf, base_branch: 'evil' });
    expect(settings.status).toBe(403);
    // The token is stored sealed, and neither it nor the code reaches the log.
    const row = await h
      .db('console_github_sessions')
      .where({ login: 'ada' })
      .first<{ sealed_token: string }>();
    expect(row.sealed_token).not.toContain(ada.token);
    const log = h.logs.join('');
    expect(log).toContain('console session opened with GitHub');
    expect(log).not.toContain(ada.token);
    expect(log).not.toContain('code-ada');
    // Signing out ends it.
    expect((await c.post('/sign-out', { _csrf: csrf })).status).toBe(303);
    expect((await c.get(`/deploys/${s.deployId}`)).status).toBe(303);
  });

  test('the site page lists only what the session can open: every link on it opens, no report or assessment title', async () => {
    const made = await h.request<{ id: string }>('POST', '/api/v1/assessments', {
      key: s.key,
      body: {
        siteId: 'shop-web',
        title: 'Checkout walk-through',
        standard: { wcag: '2.2', level: 'AA' },
        sample: { pages: ['https://shop.example/'], random: 0 },
      },
    });
    expect(made.status).toBe(201);
    // A key's session sees both, with their links.
    const keyed = new ConsoleClient(h.url);
    expect((await keyed.submitSignIn(s.key)).status).toBe(303);
    const full = (await keyed.get('/sites/shop-web')).text;
    expect(full).toContain(`href="/reports/${s.reportId}"`);
    expect(full).toContain(`href="/assessments/${made.body.id}"`);

    const c = new ConsoleClient(h.url);
    expect((await signInWithGitHub(c, ada, '/sites/shop-web')).back.status).toBe(303);
    const page = await c.get('/sites/shop-web');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Checkout walk-through');
    expect(page.text).not.toContain(`/reports/${s.reportId}`);
    expect(page.text).not.toContain(`/assessments/${made.body.id}`);
    const links = [...page.text.matchAll(/href="(\/[^"#]*)/g)].map((m) => m[1].replaceAll('&amp;', '&'));
    expect(links).toContain(`/deploys/${s.deployId}`);
    for (const link of new Set(links)) {
      expect([link, (await c.get(link)).status]).not.toEqual([link, 404]);
    }
    const signOut = { _csrf: ConsoleClient.csrfOf((await c.get('/sign-out')).text) };
    expect((await c.post('/sign-out', signOut)).status).toBe(303);
  });

  test('a user who cannot read the repository gets 404 for its deploy page; one who can read none is refused', async () => {
    const c = new ConsoleClient(h.url);
    const { back } = await signInWithGitHub(c, bob, `/deploys/${s.deployId}`);
    expect(back.status).toBe(303);
    expect((await c.get(`/deploys/${s.deployId}`)).status).toBe(404);
    expect((await c.get(`/scans/${s.headScanId}`)).status).toBe(404);
    expect((await c.get(`/scans/${docsScanId}`)).status).toBe(200);

    const e = new ConsoleClient(h.url);
    const refused = await signInWithGitHub(e, eve, '/');
    expect(refused.back.status).toBe(403);
    expect(refused.back.text).toContain('Your GitHub account cannot read the repository of any site here.');
    expect(e.cookie('a11y_session')).toBeUndefined();
  });

  test('a forged or missing state is refused before any code is exchanged', async () => {
    const c = new ConsoleClient(h.url);
    await c.get('/sign-in/github?next=%2F');
    const exchange = nock('https://github.com')
      .post('/login/oauth/access_token')
      .reply(200, { access_token: ada.token });
    const before = await h.db('console_github_sessions').count({ n: '*' });
    const forged = await c.get('/sign-in/github/callback?code=stolen&state=attacker-state');
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('could not be matched to this browser');
    // A browser that never started a sign-in (the attacker's link opened elsewhere) is refused too.
    const stranger = new ConsoleClient(h.url);
    expect((await stranger.get('/sign-in/github/callback?code=stolen&state=x')).status).toBe(403);
    expect(exchange.isDone()).toBe(false);
    expect(await h.db('console_github_sessions').count({ n: '*' })).toEqual(before);
  });

  test('a code GitHub does not accept (wrong PKCE verifier, reused) is refused', async () => {
    const c = new ConsoleClient(h.url);
    const started = await c.get('/sign-in/github?next=%2F');
    const a = readAuthorize(started.location!);
    // GitHub holds a challenge of another verifier: the exchange fails as GitHub answers it.
    codeExchange({ code: 'c1', challenge: 'x'.repeat(43), redirectUri: a.redirectUri, token: ada.token });
    const back = await c.get(`/sign-in/github/callback?code=c1&state=${a.state}`);
    expect(back.status).toBe(401);
    expect(c.cookie('a11y_session')).toBeUndefined();
  });

  test('the session ends when GitHub stops granting the repository, and when the token is revoked', async () => {
    const clock = controlClock();
    const c = new ConsoleClient(h.url);
    await signInWithGitHub(c, ada, '/');
    expect((await c.get(`/deploys/${s.deployId}`)).status).toBe(200);
    // Within the re-check interval GitHub is not asked again.
    clock.set(clock.now() + 5 * 60_000);
    expect((await c.get(`/deploys/${s.deployId}`)).status).toBe(200);
    // Due: GitHub still grants it, so the session goes on.
    clock.set(clock.now() + 6 * 60_000);
    const again = userApi(ada, { withUser: false });
    expect((await c.get(`/deploys/${s.deployId}`)).status).toBe(200);
    expect(again.isDone()).toBe(true);
    // Due again: the repository was removed from the user's reach.
    clock.set(clock.now() + 11 * 60_000);
    const gone = userApi({ ...ada, installations: { [INSTALLATION]: ['acme/other'] } }, { withUser: false });
    const ended = await c.get(`/deploys/${s.deployId}`);
    expect(gone.isDone()).toBe(true);
    expect(ended).toMatchObject({
      status: 303,
      location: `/sign-in?next=${encodeURIComponent(`/deploys/${s.deployId}`)}`,
    });
    expect(await h.db('console_github_sessions').where({ login: 'ada' })).toHaveLength(0);

    // A revoked token: GitHub answers 401, and the session ends as well.
    const d = new ConsoleClient(h.url);
    await signInWithGitHub(d, ada, '/');
    clock.set(clock.now() + 11 * 60_000);
    const revoked = nock('https://api.github.com')
      .get('/user/installations')
      .query(true)
      .reply(401, { message: 'Bad credentials' });
    expect((await d.get('/')).status).toBe(303);
    expect(revoked.isDone()).toBe(true);
  });

  test('a browser opening the API address of a deploy event or scan is sent to its console page', async () => {
    const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const [api, page] of [
      [`/api/v1/deploy/${s.deployId}`, `/deploys/${s.deployId}`],
      [`/api/v1/scans/${s.headScanId}`, `/scans/${s.headScanId}`],
    ]) {
      const browser = await fetch(h.url + api, { redirect: 'manual', headers: { accept: html } });
      expect([api, browser.status, browser.headers.get('location')]).toEqual([api, 303, page]);
      // API clients keep the API's answers: JSON asked for, or a key sent.
      const client = await h.request('GET', api, { headers: { accept: 'application/json' } });
      expect(client.status).toBe(401);
      const keyed = await h.request('GET', api, { key: s.key, headers: { accept: html } });
      expect(keyed.status).toBe(200);
    }
    // The page then asks the browser to sign in and comes back to it.
    const c = new ConsoleClient(h.url);
    expect((await c.get(`/deploys/${s.deployId}`)).location).toBe(
      `/sign-in?next=${encodeURIComponent(`/deploys/${s.deployId}`)}`,
    );
  });
});
