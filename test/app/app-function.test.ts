import nock from 'nock';
import { createAppFunction, type RerunGate } from '../../app/index.js';
import { capturingLogger, testProbot, webhookExample } from '../fixtures/github/test-app.js';

const GITHUB = 'https://api.github.com';

/** A fake gate: records every re-run request and answers with a new deploy id (or nothing). */
function fakeRerun(known: Record<string, string> = {}) {
  const calls: Array<[string, string]> = [];
  const rerun: RerunGate = (deployId, repository) => {
    calls.push([deployId, repository]);
    const next = known[deployId];
    return Promise.resolve(next ? { deployId: next } : undefined);
  };
  return { rerun, calls };
}

async function setup(known: Record<string, string> = {}) {
  const { logger, lines } = capturingLogger();
  const probot = testProbot({ log: logger });
  const gate = fakeRerun(known);
  await probot.load(createAppFunction({ rerun: gate.rerun }));
  return { probot, gate, lines };
}

function checkRunRerequested(name: string, externalId: string) {
  const payload = webhookExample('check_run', 'rerequested');
  payload.check_run.name = name;
  payload.check_run.external_id = externalId;
  payload.repository.full_name = 'acme/shop';
  payload.repository.name = 'shop';
  payload.repository.owner.login = 'acme';
  return payload;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('app function: check_run.rerequested', () => {
  test('our check run re-runs the deploy event named by its external_id, for its repository', async () => {
    const { probot, gate, lines } = await setup({ dep_old: 'dep_new' });
    await probot.receive({
      id: '1',
      name: 'check_run',
      payload: checkRunRerequested('a11y-gate / shop-web', 'dep_old') as never,
    });
    expect(gate.calls).toEqual([['dep_old', 'acme/shop']]);
    expect(lines.find((l) => l.msg === 'gate re-evaluated on request')).toMatchObject({
      from: 'dep_old',
      deployId: 'dep_new',
    });
    // No GitHub call: the new decision's GitHub delivery posts its run, through the outbox.
    expect(nock.pendingMocks()).toEqual([]);
  });

  test.each([
    ['another check name', 'randscape', 'dep_old'],
    ['no external id', 'a11y-gate / shop-web', ''],
  ])('%s: ignored', async (_what, name, externalId) => {
    const { probot, gate } = await setup({ dep_old: 'dep_new' });
    await probot.receive({
      id: '2',
      name: 'check_run',
      payload: checkRunRerequested(name, externalId) as never,
    });
    expect(gate.calls).toEqual([]);
  });

  test('a deploy event the gate does not know (or of another repository) is logged, not thrown', async () => {
    const { probot, gate, lines } = await setup();
    await probot.receive({
      id: '3',
      name: 'check_run',
      payload: checkRunRerequested('a11y-gate / shop-web', 'dep_gone') as never,
    });
    expect(gate.calls).toEqual([['dep_gone', 'acme/shop']]);
    expect(lines.some((l) => l.msg.includes('names no deploy event of this repository'))).toBe(true);
  });

  test('a failing re-run fails the delivery (so GitHub shows it) and is logged', async () => {
    const { logger, lines } = capturingLogger();
    const probot = testProbot({ log: logger });
    await probot.load(
      createAppFunction({
        rerun: () => Promise.reject(new Error('database unavailable')),
      }),
    );
    await expect(
      probot.receive({
        id: '4',
        name: 'check_run',
        payload: checkRunRerequested('a11y-gate / shop-web', 'dep_old') as never,
      }),
    ).rejects.toThrow('database unavailable');
    expect(lines.some((l) => l.msg === 'gate re-run failed' && l.deployId === 'dep_old')).toBe(true);
  });
});

describe('app function: check_suite.rerequested', () => {
  function suiteRerequested() {
    const payload = webhookExample('check_suite', 'rerequested');
    payload.repository.full_name = 'acme/shop';
    payload.repository.name = 'shop';
    payload.repository.owner.login = 'acme';
    return payload;
  }

  test('re-runs the latest of our check runs per site in the suite, and nothing else', async () => {
    const { probot, gate } = await setup({ dep_b: 'dep_b2', dep_docs: 'dep_docs2' });
    const payload = suiteRerequested();
    const installationId = payload.installation!.id;
    const github = nock(GITHUB)
      .post(`/app/installations/${installationId}/access_tokens`)
      .reply(201, { token: 'ghs_x', expires_at: '2099-01-01T00:00:00Z' })
      .get(`/repos/acme/shop/check-suites/${payload.check_suite.id}/check-runs`)
      .query(true)
      .reply(200, {
        total_count: 5,
        check_runs: [
          { id: 10, name: 'a11y-gate / shop-web', external_id: 'dep_a' },
          { id: 12, name: 'a11y-gate / shop-web', external_id: 'dep_b' },
          { id: 11, name: 'a11y-gate / docs', external_id: 'dep_docs' },
          { id: 13, name: 'lint', external_id: 'dep_x' },
          { id: 14, name: 'a11y-gate / blank', external_id: '' },
        ],
      });
    await probot.receive({ id: '5', name: 'check_suite', payload: payload as never });
    expect(github.isDone()).toBe(true);
    expect(gate.calls.sort()).toEqual([
      ['dep_b', 'acme/shop'],
      ['dep_docs', 'acme/shop'],
    ]);
  });

  test('a suite without gate results re-runs nothing', async () => {
    const { probot, gate, lines } = await setup();
    const payload = suiteRerequested();
    nock(GITHUB)
      .post(`/app/installations/${payload.installation!.id}/access_tokens`)
      .reply(201, { token: 'ghs_x', expires_at: '2099-01-01T00:00:00Z' })
      .get(`/repos/acme/shop/check-suites/${payload.check_suite.id}/check-runs`)
      .query(true)
      .reply(200, { total_count: 1, check_runs: [{ id: 13, name: 'lint', external_id: 'x' }] });
    await probot.receive({ id: '6', name: 'check_suite', payload: payload as never });
    expect(gate.calls).toEqual([]);
    expect(lines.some((l) => l.msg.includes('holds no gate results'))).toBe(true);
  });
});

describe('app function: other events', () => {
  test('installation.created is logged with the account, and calls nothing', async () => {
    const { probot, gate, lines } = await setup();
    const payload = webhookExample('installation', 'created');
    await probot.receive({ id: '7', name: 'installation', payload: payload as never });
    expect(lines.find((l) => l.msg === 'installation event')).toMatchObject({
      action: 'created',
      installation: payload.installation.id,
      account: 'Codertocat',
    });
    expect(gate.calls).toEqual([]);
  });

  test('events the app does not handle are ignored cleanly', async () => {
    const { probot, gate } = await setup();
    await probot.receive({
      id: '8',
      name: 'check_run',
      payload: { ...webhookExample('check_run', 'completed') } as never,
    });
    await probot.receive({
      id: '9',
      name: 'check_suite',
      payload: webhookExample('check_suite', 'requested') as never,
    });
    expect(gate.calls).toEqual([]);
    expect(nock.pendingMocks()).toEqual([]);
  });
});
