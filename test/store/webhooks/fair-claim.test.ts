import { fairPick, type ClaimCandidate } from '../../../api/store/webhooks/fair-claim.js';

const none = { bySubscription: new Map<string, number>(), byOrg: new Map<string, number>() };

/** `n` due deliveries of one subscription, older than anything made later. */
let clock = 0;
function due(org: string, sub: string, n: number): ClaimCandidate[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${sub}-${i}`,
    org,
    subscriptionId: sub,
    nextAttemptAt: new Date(1_000_000 + clock++ * 1000).toISOString(),
  }));
}

describe('fair claiming of due deliveries', () => {
  test("a flood of one org's pings, due first, does not keep another org's delivery out of the claim", () => {
    const flood = Array.from({ length: 50 }, (_, s) => due('x', `x${s}`, 4)).flat();
    const y = due('y', 'y0', 1);
    const picked = fairPick([...flood, ...y], none, { perSubscription: 2, perOrg: 25 }, 50);
    expect(picked).toContain('y0-0');
    expect(picked.filter((id) => id.startsWith('x'))).toHaveLength(25);
  });

  test('at most perSubscription in flight per subscription, counting those already leased', () => {
    const inFlight = { bySubscription: new Map([['a', 1]]), byOrg: new Map([['x', 1]]) };
    const picked = fairPick(due('x', 'a', 5), inFlight, { perSubscription: 2, perOrg: 10 }, 10);
    expect(picked).toEqual(['a-0']);
  });

  test('round-robin over subscriptions and orgs; the org with less in flight goes first', () => {
    const c = [...due('x', 'x1', 3), ...due('x', 'x2', 3), ...due('y', 'y1', 3)];
    const inFlight = { bySubscription: new Map<string, number>(), byOrg: new Map([['x', 3]]) };
    const picked = fairPick(c, inFlight, { perSubscription: 3, perOrg: 10 }, 4);
    expect(picked).toEqual(['y1-0', 'x1-0', 'y1-1', 'x2-0']);
  });

  test('an org at its share gets nothing more; the limit caps the claim', () => {
    const byOrg = new Map([['x', 25]]);
    expect(fairPick(due('x', 'x1', 3), { ...none, byOrg }, { perSubscription: 2, perOrg: 25 }, 10)).toEqual(
      [],
    );
    expect(fairPick(due('z', 'z1', 9), none, { perSubscription: 9, perOrg: 25 }, 3)).toHaveLength(3);
  });
});
