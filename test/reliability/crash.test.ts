import type { Knex } from 'knex';
import { createDb } from '../../api/store/db.js';
import { dbKinds } from '../helpers/harness.js';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';
import { seededRandom } from '../../api/domain/vpat/assessments/sample.js';

/**
 * Crash safety of scan ingest: 200 scans are submitted at once to the real server process, which is
 * SIGKILLed at a seeded moment (after the K-th acknowledged scan), restarted on the same data, and the
 * unacknowledged scans are submitted again, twice over. Afterwards every scan answered 201 is complete
 * and no scan exists without all of its pages and issues.
 */

const SCANS = 200;
const KILLS = 2;
const SEED = 9;
const SITE = 'crash-site';

interface Planned {
  sha: string;
  body: string;
  pages: number;
  issues: number;
}

function plan(random: () => number): Planned[] {
  return Array.from({ length: SCANS }, (_, i) => {
    const sha = (0xc0ffee000 + i).toString(16).padStart(40, '0');
    const pageCount = 1 + Math.floor(random() * 12);
    let issues = 0;
    const pages = Array.from({ length: pageCount }, (_, p) => {
      const n = Math.floor(random() * 25);
      issues += n;
      return {
        url: `https://${SITE}.example/p${p}`,
        title: `Page ${p}`,
        issues: Array.from({ length: n }, (_, k) => ({
          rule: ['color-contrast', 'image-alt', 'label', 'link-name'][k % 4],
          impact: ['critical', 'serious', 'moderate', 'minor'][Math.floor(random() * 4)],
          selector: `#el-${p}-${k}`,
          html: `<div id="el-${p}-${k}">${'x'.repeat(Math.floor(random() * 400))}</div>`,
          wcag: ['1.4.3'],
        })),
      };
    });
    const body = JSON.stringify({
      url: `https://${SITE}.example/`,
      siteId: SITE,
      sha,
      branch: 'main',
      pages,
    });
    return { sha, body, pages: pageCount, issues };
  });
}

describe.each(dbKinds)('crash safety of scan ingest under SIGKILL (%s)', (db) => {
  let server: ServerProcess;
  let database: FreshPgDatabase | undefined;
  let knex: Knex | undefined;

  afterAll(async () => {
    await knex?.destroy();
    await server?.dispose();
    await database?.drop();
  });

  it(`${SCANS} concurrent scans, ${KILLS} kills: every acknowledged scan is complete, no partial scan exists`, async () => {
    if (db === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    server = new ServerProcess({
      databaseUrl: database?.url,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', WEBHOOK_WORKER: 'false' },
    });
    await server.start();
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, object>;
    };
    expect(Object.keys(doc.paths)).toContain('/api/v1/scans');
    const { key } = await server.createKey('crash');
    const random = seededRandom(SEED);
    const planned = plan(random);
    const bySha = new Map(planned.map((p) => [p.sha, p]));
    const acknowledged = new Map<string, string>(); // scan id → sha
    let pending = planned;
    const rounds: string[] = [];

    for (let round = 0; pending.length > 0; round++) {
      if (round > KILLS + 3) throw new Error(`scans still unacknowledged after ${round} rounds`);
      const killing = round < KILLS;
      // The seeded moment: after the K-th 201 of this round, somewhere in its first 60 % (always a
      // moment that comes, however few scans are left).
      const killAfter = killing
        ? Math.max(1, Math.min(pending.length, Math.ceil(pending.length * (0.05 + 0.55 * random()))))
        : Infinity;
      let answered = 0;
      let killed: Promise<void> | undefined;
      const cut: Planned[] = [];
      const failed: string[] = [];
      await Promise.all(
        pending.map(async (p) => {
          try {
            const res = await fetch(`${server.url}/api/v1/scans`, {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: p.body,
            });
            const text = await res.text();
            if (res.status !== 201) {
              failed.push(`${res.status} ${text.slice(0, 200)}`);
              cut.push(p);
              return;
            }
            acknowledged.set((JSON.parse(text) as { id: string }).id, p.sha);
            answered += 1;
            if (answered === killAfter) killed = server.kill();
          } catch {
            cut.push(p); // connection reset by the kill
          }
        }),
      );
      await killed;
      rounds.push(
        `round ${round + 1}: ${pending.length} sent, ${pending.length - cut.length} × 201` +
          (killing ? `, SIGKILL after the ${killAfter}th, ${cut.length} cut off` : '') +
          (failed.length ? `, other answers: ${[...new Set(failed)].slice(0, 3).join(' | ')}` : ''),
      );
      // A SIGKILLed process answers nothing: the kill only cuts connections. Any HTTP answer other
      // than 201, in any round, is a failure of the service.
      if (failed.length) throw new Error(`${failed.join('\n')}\n${server.errorLogs()}`);
      if (killing) {
        expect(server.running).toBe(false);
        await server.start();
      }
      pending = cut;
    }

    // Through the API: every acknowledged scan answers with all its pages and issues.
    for (const [id, sha] of acknowledged) {
      const res = await fetch(`${server.url}/api/v1/scans/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
      const scan = (await res.json()) as {
        summary?: { pages: number; issues: number };
        pages?: Array<{ issues?: unknown[] }>;
        issues?: unknown[];
      };
      const expected = bySha.get(sha)!;
      expect([id, scan.summary?.pages, scan.summary?.issues]).toEqual([id, expected.pages, expected.issues]);
      if (scan.pages) expect(scan.pages.length).toBe(expected.pages);
      const nested = scan.issues?.length ?? scan.pages?.reduce((a, p) => a + (p.issues?.length ?? 0), 0);
      if (nested !== undefined) expect(nested).toBe(expected.issues);
    }

    // In the database: no scan without all of its rows, no rows without their scan.
    await server.stop();
    knex = createDb({ url: database?.url, dataDir: server.dataDir });
    const rows: Array<{
      id: string;
      sha: string;
      page_count: number;
      issue_count: number;
      pages: number;
      issues: number;
    }> = await knex('scans as s').select(
      's.id',
      's.sha',
      's.page_count',
      's.issue_count',
      knex.raw('(select count(*) from scan_pages p where p.scan_id = s.id) as pages'),
      knex.raw('(select count(*) from scan_issues i where i.scan_id = s.id) as issues'),
    );
    for (const r of rows) {
      const expected = bySha.get(r.sha)!;
      expect([r.id, Number(r.pages), Number(r.issues)]).toEqual([r.id, expected.pages, expected.issues]);
      expect([r.page_count, r.issue_count]).toEqual([expected.pages, expected.issues]);
    }
    const orphanPages = await knex('scan_pages')
      .whereNotIn('scan_id', knex('scans').select('id'))
      .count({ n: '*' });
    const orphanIssues = await knex('scan_issues')
      .whereNotIn('scan_id', knex('scans').select('id'))
      .count({ n: '*' });
    expect(Number(orphanPages[0].n)).toBe(0);
    expect(Number(orphanIssues[0].n)).toBe(0);
    // The outbox row is part of the same transaction: exactly one scan.created per stored scan, and
    // none for a scan that was rolled back by the kill.
    const events: Array<{ payload: string }> = await knex('outbox_messages')
      .where({ type: 'scan.created' })
      .select('payload');
    const eventScanIds = events
      .map((e) => (JSON.parse(e.payload) as { data: { id: string } }).data.id)
      .sort();
    expect(eventScanIds).toEqual(rows.map((r) => r.id).sort());
    // Every planned scan is stored at least once; more than once only where a 201 was lost in the kill.
    const stored = new Set(rows.map((r) => r.sha));
    expect(stored.size).toBe(SCANS);
    for (const id of acknowledged.keys()) expect(rows.some((r) => r.id === id)).toBe(true);
    const duplicates = rows.length - stored.size;
    console.log(
      `crash (${db}): ${SCANS} scans, ${server.starts - 1} kills survived, ${acknowledged.size} acknowledged, ` +
        `${rows.length} stored (${duplicates} committed just before a kill and resubmitted), 0 partial\n  ` +
        rounds.join('\n  '),
    );
  });
});
