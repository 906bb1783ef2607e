import { parseShard, shardOf } from '../../core/scans/shards.js';
import { parseScanSettings } from '../../scanner/settings.js';

const list = Array.from({ length: 10 }, (_, i) => `https://shop.example.com/p/${i}`);

test('every page goes to exactly one shard, the shards differ by at most one page, and each keeps the list order', () => {
  for (const total of [1, 2, 3, 4, 7, 10, 13]) {
    const shards = Array.from({ length: total }, (_, i) => shardOf(list, { index: i + 1, total }));
    expect(shards.flat().sort()).toEqual([...list].sort());
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    for (const s of shards) expect(s).toEqual(list.filter((u) => s.includes(u)));
  }
  // The same list splits the same way in every job.
  expect(shardOf(list, { index: 2, total: 3 })).toEqual([list[1], list[4], list[7]]);
});

test('a shard is I/N with 1 ≤ I ≤ N; a crawl cannot be sharded', () => {
  expect(parseShard('2/4')).toEqual({ index: 2, total: 4 });
  expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, total: 1 });
  expect(parseShard('0/4')).toContain('from 1 to 4');
  expect(parseShard('5/4')).toContain('from 1 to 4');
  expect(parseShard('2')).toContain('"I/N"');
  expect(parseShard('1/0')).toContain('1 to 1000 shards');
  const settings = (values: Record<string, string>) =>
    parseScanSettings(
      (name) => values[name] ?? '',
      (name, problem) => new Error(`${name} ${problem}`),
    );
  expect(settings({ urls: list[0], shard: '1/2' })?.shard).toEqual({ index: 1, total: 2 });
  expect(() => settings({ urls: list[0], shard: '1/2', crawl: 'true' })).toThrow(
    'shard cannot split a crawl',
  );
  expect(() => settings({ sitemap: 'https://shop.example.com/sitemap.xml', shard: 'a/b' })).toThrow(
    'shard must be "I/N"',
  );
});
