import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The server's entry (server/main.ts; `npm start` runs its compiled copy) as a real process: it starts on an
 * empty data dir and stops cleanly on SIGTERM.
 */
describe('server process', () => {
  test('first start creates the database and admin token; SIGTERM drains and exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-proc-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in 30 s:\n${out}`)), 30_000);
      child.stdout.on('data', () => {
        const m = /"url":"(http:\/\/[^"]+)".*a11y-gate listening/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    expect(out).toContain(path.join(dataDir, 'admin-token'));
    expect(fs.existsSync(path.join(dataDir, 'a11y-gate.sqlite'))).toBe(true);
    const info = await fetch(`${url}/api/v1`);
    expect(info.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(out).toContain('shutting down');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
