import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { quietBadSignatures, withWebhookSource } from '../../server/webhook-log.js';
import { APP_ID, PRIVATE_KEY_PEM, WEBHOOK_SECRET, signWebhook } from '../fixtures/github/test-app.js';
import { startHarness } from '../helpers/harness.js';

interface Line {
  level: number;
  msg: string;
  source?: string;
  refused_since_last?: number;
  err?: { stack?: string };
}

const parse = (logs: string[]) =>
  logs.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Line);

describe('badly signed GitHub deliveries are logged once per source per minute, at warn, without a stack', () => {
  test('the real server: five bad deliveries make one warning line and no error', async () => {
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-app-key-')), 'app.pem');
    fs.writeFileSync(keyFile, PRIVATE_KEY_PEM, { mode: 0o600 });
    const h = await startHarness({
      logLevel: 'warn',
      env: {
        APP_ID: String(APP_ID),
        WEBHOOK_SECRET,
        PRIVATE_KEY_PATH: keyFile,
        PUBLIC_URL: 'http://127.0.0.1',
      },
    });
    try {
      const body = JSON.stringify({ zen: 'hello', hook_id: 1 });
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${h.url}/api/github/webhooks`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'ping',
            'x-github-delivery': `bad-${i}`,
            'x-hub-signature-256': signWebhook(body, 'not-the-secret'),
          },
          body,
        });
        expect(res.status).toBe(400);
      }
      const lines = parse(h.logs);
      const refusals = lines.filter((l) => /signature/i.test(l.msg ?? ''));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatchObject({ level: 40, source: '127.0.0.1' });
      expect(refusals[0].err).toBeUndefined();
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      await h.close();
    }
  });

  test('a minute later the same source is logged again with the count refused meanwhile; others pass', () => {
    const out: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        out.push(String(chunk));
        cb();
      },
    });
    let t = 1_000_000;
    const log = quietBadSignatures(pino({ level: 'warn' }, sink), () => t).child({ name: 'probot' });
    const bad = new AggregateError([Object.assign(new Error('signature does not match'), { status: 400 })]);
    withWebhookSource('10.0.0.1', () => {
      for (let i = 0; i < 4; i++) log.error(bad);
    });
    withWebhookSource('10.0.0.2', () => log.error(bad));
    t += 60_000;
    withWebhookSource('10.0.0.1', () => log.error(bad));
    log.error(new Error('something else'));
    const lines = parse(out);
    expect(lines.map((l) => [l.level, l.source, l.refused_since_last])).toEqual([
      [40, '10.0.0.1', 0],
      [40, '10.0.0.2', 0],
      [40, '10.0.0.1', 3],
      [50, undefined, undefined],
    ]);
  });
});
