import { ArtifactRefused, zipLimits } from '../../core/github/fork-artifact.js';
import { readArtifactZip } from '../../app/artifact-zip.js';
import { hostileZip } from '../fixtures/github/hostile-zip.js';

/** The App's reading of an artifact's zip, on zips written byte by byte (test/fixtures/github/hostile-zip.ts). */

const MiB = 1024 * 1024;
const limits = zipLimits(25 * MiB);
const manifest = { name: 'a11y-gate.json', data: Buffer.from('{"format":"a11y-gate-scan/1"}') };
const scan = { name: 'scan.json', data: Buffer.from('{"pages":[]}') };

async function refusal(zip: Buffer, l = limits): Promise<string> {
  try {
    await readArtifactZip(zip, l);
  } catch (err) {
    if (err instanceof ArtifactRefused) return err.reason;
    throw err;
  }
  throw new Error('the zip was not refused');
}

test('the two files are read whole; other harmless entries are left unread', async () => {
  const files = await readArtifactZip(
    hostileZip([manifest, { name: 'notes/readme.txt', data: Buffer.from('x') }, scan]),
    limits,
  );
  expect(files.manifest.toString()).toBe(manifest.data.toString());
  expect(files.scan.toString()).toBe(scan.data.toString());
});

test('a traversal or absolute name is refused even in an entry the App would not read', async () => {
  expect(
    await refusal(hostileZip([manifest, scan, { name: '../../.bashrc', data: Buffer.from('x') }])),
  ).toMatch(/climbs out/);
  expect(await refusal(hostileZip([{ ...manifest, name: '/a11y-gate.json' }, scan]))).toMatch(
    /absolute path/,
  );
});

test('zip bombs: a 1 GB declared size, a ratio past the limit, and inflating past what an entry declares', async () => {
  expect(await refusal(hostileZip([manifest, { ...scan, declaredBytes: 1024 * MiB }]))).toMatch(
    /scan.json declares 1024.0 MiB uncompressed/,
  );
  // 20 MiB of zeros deflate to a few KiB: honest about its size, but a bomb by its ratio.
  const zeros = Buffer.alloc(20 * MiB);
  expect(await refusal(hostileZip([manifest, { name: 'scan.json', data: zeros }]))).toMatch(
    /would inflate \d+ times its compressed size/,
  );
  // Declares a few bytes and inflates to megabytes: stopped while inflating.
  expect(
    await refusal(
      hostileZip([manifest, { name: 'scan.json', data: Buffer.alloc(2 * MiB), declaredBytes: 100 }]),
    ),
  ).toMatch(/scan.json (inflates to more than the 100 bytes it declares|is damaged in the zip)/);
});

test('the limits of the whole zip: its size, its entries, the total inflated', async () => {
  const small = { ...limits, zipBytes: 100 };
  expect(await refusal(hostileZip([manifest, scan]), small)).toMatch(/over the limit of 100/);
  const many = Array.from({ length: 17 }, (_, i) => ({ name: `f${i}.json`, data: Buffer.from('{}') }));
  expect(await refusal(hostileZip(many))).toMatch(/holds 17 entries/);
  const tight = { ...limits, totalBytes: 20 };
  expect(await refusal(hostileZip([manifest, scan]), tight)).toMatch(/inflates past .* in all/);
});

test('a missing or doubled file, or no zip at all, is refused', async () => {
  expect(await refusal(hostileZip([manifest]))).toMatch(/lacks scan.json/);
  expect(await refusal(hostileZip([scan]))).toMatch(/lacks a11y-gate.json/);
  expect(await refusal(hostileZip([manifest, scan, scan]))).toMatch(/holds scan.json twice/);
  expect(await refusal(Buffer.from('PK not really a zip'))).toMatch(/not a readable zip/);
});
