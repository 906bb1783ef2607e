import {
  ArtifactRefused,
  entryNameRefusal,
  entrySizeRefusal,
  forkScanBranch,
  inflatedRefusal,
  provenanceRefusal,
  pullRequestOfRun,
  readManifest,
  zipLimits,
  type ListedPullRequest,
} from '../../../core/github/fork-artifact.js';

const SHA = 'abcdef0123456789abcdef0123456789abcdef01';
const OTHER = '0123456789abcdef0123456789abcdef01234567';
const MiB = 1024 * 1024;
const limits = zipLimits(25 * MiB);

describe('the names a zip entry may have', () => {
  test('plain relative names pass', () => {
    for (const name of ['scan.json', 'a11y-gate.json', 'results/page-1.json', 'a..b/c..json']) {
      expect(entryNameRefusal(name)).toBeUndefined();
    }
  });

  test.each([
    ['../scan.json', /climbs out/],
    ['results/../../etc/passwd', /climbs out/],
    ['..', /climbs out/],
    ['/etc/passwd', /absolute path/],
    ['C:/Windows/system.ini', /absolute path/],
    ['c:evil.json', /absolute path/],
    ['..\\scan.json', /backslash/],
    ['', /invalid name/],
    ['scan.json\0.png', /invalid name/],
  ])('%j is refused', (name, reason) => {
    expect(entryNameRefusal(name)).toMatch(reason);
  });
});

describe('the sizes an entry may declare and inflate to', () => {
  test('a declared size over the entry limit is refused before inflating (1 GB declared)', () => {
    const refused = entrySizeRefusal(
      { name: 'scan.json', declaredBytes: 1024 * MiB, compressedBytes: 900 },
      limits,
    );
    expect(refused).toMatch(/scan.json declares 1024.0 MiB uncompressed, over the limit of 25.0 MiB/);
  });

  test('a large entry inflating far beyond its compressed size is a zip bomb; small ones are not judged', () => {
    expect(
      entrySizeRefusal({ name: 'scan.json', declaredBytes: 20 * MiB, compressedBytes: 20 * 1024 }, limits),
    ).toMatch(/would inflate 1024 times its compressed size/);
    // Ordinary scan JSON compresses well, but not by that much.
    expect(
      entrySizeRefusal({ name: 'scan.json', declaredBytes: 20 * MiB, compressedBytes: 2 * MiB }, limits),
    ).toBeUndefined();
    expect(
      entrySizeRefusal({ name: 'a11y-gate.json', declaredBytes: 4000, compressedBytes: 1 }, limits),
    ).toBeUndefined();
  });

  test('inflating past the declared size, the entry limit or the total limit stops', () => {
    const entry = { name: 'scan.json', declaredBytes: 100 };
    expect(inflatedRefusal(entry, 100, 100, limits)).toBeUndefined();
    expect(inflatedRefusal(entry, 101, 101, limits)).toMatch(/more than the 100 bytes it declares/);
    const big = { name: 'scan.json', declaredBytes: 100 * MiB };
    expect(inflatedRefusal(big, 25 * MiB + 1, 25 * MiB + 1, limits)).toMatch(/inflates past 25.0 MiB/);
    expect(inflatedRefusal(big, MiB, limits.totalBytes + 1, limits)).toMatch(/in all/);
  });
});

describe('the manifest and where the artifact came from', () => {
  const manifest = { format: 'a11y-gate-scan/1', site_id: 'shop', pull_request: 17, head_sha: SHA };

  test('a well-formed manifest is read; anything else is refused with the field at fault', () => {
    expect(readManifest(manifest)).toEqual(manifest);
    expect(readManifest({ ...manifest, pull_request: null }).pull_request).toBeNull();
    const refusals: Array<[unknown, RegExp]> = [
      [null, /not an a11y-gate-scan\/1 manifest/],
      [{ ...manifest, format: 'other' }, /not an a11y-gate-scan\/1 manifest/],
      [{ ...manifest, site_id: '../shop' }, /site_id/],
      [{ ...manifest, head_sha: 'HEAD' }, /head_sha/],
      [{ ...manifest, head_sha: SHA.toUpperCase() }, /head_sha/],
      [{ ...manifest, pull_request: -1 }, /pull_request/],
      [{ ...manifest, pull_request: '17' }, /pull_request/],
    ];
    for (const [value, reason] of refusals) {
      expect(() => readManifest(value)).toThrow(ArtifactRefused);
      expect(() => readManifest(value)).toThrow(reason);
    }
  });

  test('the files must name the commit and pull request GitHub names', () => {
    const m = readManifest(manifest);
    expect(provenanceRefusal(m, SHA, { headSha: SHA.toUpperCase(), pullRequest: 17 })).toBeUndefined();
    expect(provenanceRefusal(m, SHA, { headSha: OTHER, pullRequest: 17 })).toMatch(
      /a11y-gate.json names commit abcdef012345, but the workflow run is for 0123456789ab/,
    );
    expect(provenanceRefusal(m, OTHER, { headSha: SHA, pullRequest: 17 })).toMatch(
      /scan.json names 0123456789ab/,
    );
    expect(provenanceRefusal(m, undefined, { headSha: SHA, pullRequest: 17 })).toMatch(
      /scan.json names no commit/,
    );
    expect(provenanceRefusal(m, SHA, { headSha: SHA, pullRequest: 18 })).toMatch(
      /names pull request #17, but GitHub lists #18/,
    );
    expect(
      provenanceRefusal({ ...m, pull_request: null }, SHA, { headSha: SHA, pullRequest: 18 }),
    ).toBeUndefined();
  });
});

describe('the pull request of a run', () => {
  const pr = (number: number, sha: string, base = 'acme/shop', state = 'open'): ListedPullRequest => ({
    number,
    state,
    head: { sha },
    base: { repo: { full_name: base } },
  });

  test('the open pull request into the repository with that head; none when GitHub lists none', () => {
    const run = { headSha: SHA, repository: 'Acme/Shop' };
    expect(pullRequestOfRun([], run)).toBeUndefined();
    expect(
      pullRequestOfRun(
        [pr(9, SHA, 'other/shop'), pr(8, SHA, 'acme/shop', 'closed'), pr(7, OTHER), pr(21, SHA), pr(17, SHA)],
        run,
      )?.number,
    ).toBe(17);
  });

  test("a fork's scan is filed under the pull request, never under the fork's branch name", () => {
    expect(forkScanBranch(17)).toBe('pull/17/head');
  });
});
