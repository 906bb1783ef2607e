import { StatementBatcher } from '../../api/store/access/statement-batcher.js';
import { nextTurn } from '../../api/domain/turns.js';

/** A statement runner the test answers by hand, recording what each statement was asked. */
function manualRunner() {
  const sent: Array<{ keys: number[]; answer: () => void; fail: (err: Error) => void }> = [];
  const run = (keys: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      sent.push({ keys, answer: () => resolve(keys.map((k) => `v${k}`)), fail: reject });
    });
  return { sent, run };
}

describe('statement batcher', () => {
  it('sends a lone request at once, and those arriving while statements are in flight as one', async () => {
    const { sent, run } = manualRunner();
    const batcher = new StatementBatcher(run, 2);
    const first = batcher.load(1);
    const second = batcher.load(2);
    expect(sent.map((s) => s.keys)).toEqual([[1], [2]]);

    const later = [3, 4, 3, 5].map((k) => batcher.load(k));
    expect(sent).toHaveLength(2);
    sent[0].answer();
    expect(await first).toBe('v1');
    await nextTurn();
    expect(sent.map((s) => s.keys)).toEqual([[1], [2], [3, 4, 3, 5]]);
    sent[2].answer();
    expect(await Promise.all(later)).toEqual(['v3', 'v4', 'v3', 'v5']);
    sent[1].answer();
    expect(await second).toBe('v2');
  });

  it('a failed statement fails only the requests it carried', async () => {
    const { sent, run } = manualRunner();
    const batcher = new StatementBatcher(run, 1);
    const first = batcher.load(1);
    const waiting = [batcher.load(2), batcher.load(3)];
    sent[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await nextTurn();
    expect(sent[1].keys).toEqual([2, 3]);
    sent[1].answer();
    expect(await Promise.all(waiting)).toEqual(['v2', 'v3']);
  });

  it('never sends more than the batch limit in one statement', async () => {
    const { sent, run } = manualRunner();
    const batcher = new StatementBatcher(run, 1, 3);
    const all = [1, 2, 3, 4, 5, 6, 7].map((k) => batcher.load(k));
    for (let i = 0; i < 3; i++) {
      sent[i].answer();
      await nextTurn();
    }
    expect(sent.map((s) => s.keys)).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
    expect(await Promise.all(all)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7']);
  });
});
