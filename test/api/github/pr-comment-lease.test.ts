import { withPullRequestComment } from '../../../api/services/github/pr-comments.js';
import { dbKinds, startHarness, type Harness } from '../../helpers/harness.js';

/**
 * The lease that makes one writer per pull request and site, between two servers on one database (two
 * instances): they write in turn, the second sees the id the first stored, and a lease left by a process
 * that stopped mid-way is taken over once it runs out.
 */
describe.each(dbKinds)('pull request comment lease across two instances (%s)', (db) => {
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    a = await startHarness({ db });
    b = await startHarness({ db, dataDir: a.dataDir, schema: a.schema });
  });
  afterAll(async () => {
    await b?.close({ keepData: true });
    await a?.close();
  });

  const key = { org: 'acme', repository: 'Acme/Shop', pullNumber: 7, siteId: 'shop' };
  const ctx = (h: Harness) => h.server.service.ctx;

  test('two writers at once take turns; the second gets the id the first stored', async () => {
    const order: string[] = [];
    let release!: () => void;
    const firstHolds = new Promise<void>((resolve) => (release = resolve));
    const first = withPullRequestComment(
      ctx(a),
      key,
      { leaseMs: 10_000, waitMs: 10_000, pollMs: 20 },
      async (id) => {
        order.push(`a saw ${id}`);
        await firstHolds;
        order.push('a wrote 41');
        return { commentId: 41 };
      },
    );
    // The second instance (another case of the repository's name: the same pull request) waits.
    while (order.length === 0) await new Promise((r) => setTimeout(r, 10));
    const second = withPullRequestComment(
      ctx(b),
      { ...key, repository: 'acme/shop' },
      { leaseMs: 10_000, waitMs: 10_000, pollMs: 20 },
      (id) => {
        order.push(`b saw ${id}`);
        return Promise.resolve({ commentId: id });
      },
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(order).toEqual(['a saw null']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a saw null', 'a wrote 41', 'b saw 41']);
  });

  test('a lease whose holder stopped is taken over when it runs out', async () => {
    const stuck = { ...key, pullNumber: 8 };
    // A writer that never finishes (its process "stopped"): its lease is short. The other instance starts
    // once this one holds the lease, however slowly the machine runs.
    let held = false;
    void withPullRequestComment(ctx(a), stuck, { leaseMs: 300, waitMs: 1_000 }, () => {
      held = true;
      return new Promise<{ commentId: number }>(() => undefined);
    });
    while (!held) await new Promise((r) => setTimeout(r, 10));
    const seen = await withPullRequestComment(
      ctx(b),
      stuck,
      { leaseMs: 5_000, waitMs: 5_000, pollMs: 50 },
      (id) => Promise.resolve({ commentId: 99, saw: id }),
    );
    expect(seen).toEqual({ commentId: 99, saw: null });
    await expect(
      withPullRequestComment(ctx(a), stuck, { leaseMs: 5_000, waitMs: 1_000 }, (id) =>
        Promise.resolve({ commentId: undefined, saw: id }),
      ),
    ).resolves.toEqual({ commentId: undefined, saw: 99 });
  });
});
