import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHarness } from '../helpers/harness.js';

/** The SQLite file holds key hashes, sealed webhook secrets and every scan: only its owner may read it. */
describe('SQLite files', () => {
  test('the database and its WAL files are created with mode 0600, whatever the umask', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-gate-mode-'));
    const previous = process.umask(0o022);
    const h = await startHarness({ db: 'sqlite', dataDir });
    try {
      await h.createKey({ org: 'mode' });
      const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('a11y-gate.sqlite'));
      expect(files).toEqual(
        expect.arrayContaining(['a11y-gate.sqlite', 'a11y-gate.sqlite-wal', 'a11y-gate.sqlite-shm']),
      );
      for (const f of files) {
        expect([f, (fs.statSync(path.join(dataDir, f)).mode & 0o777).toString(8)]).toEqual([f, '600']);
      }
    } finally {
      process.umask(previous);
      await h.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('an existing database file readable by others is tightened to 0600 at start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-gate-mode-'));
    const file = path.join(dataDir, 'a11y-gate.sqlite');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const h = await startHarness({ db: 'sqlite', dataDir });
    try {
      expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    } finally {
      await h.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
