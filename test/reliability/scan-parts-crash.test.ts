import type { CreatedScan, OpenScan, ScanPartAccepted } from '../helpers/api-types.js';
import { dbKinds } from '../helpers/harness.js';
import { createPgDatabase, ServerProcess, type FreshPgDatabase } from '../helpers/server-process.js';

/**
 * A scan sent in parts, with the server SIGKILLed while parts are being stored. Until it is completed
 * the scan stays invisible and holds only whole parts; after the restart the client retries every
 * part it has no answer for (with the same Idempotency-Key) and completes the scan, which then holds
 * every part exactly once: no acknowledged part is lost, none is stored twice.
 */

const PARTS = 16;
const PAGES_PER_PART = 40;
const KILL_AFTER = 5;

const partBody = (k: number) =>
  JSON.stringify({
    pages: Array.from({ length: PAGES_PER_PART }, (_, i) => ({
      url: `/part-${k}/page-${i}`,
      issues: Array.from({ length: 10 }, (_, j) => ({
        rule: 'image-alt',
        selector: `#i${j}`,
        html: 'x'.repeat(300),
      })),
    })),
  });

/** The answer of type T, or (status 0) none when the request was cut off by the kill. */
async function post<T>(
  server: ServerProcess,
  key: string,
  path: string,
  body?: string,
  idem?: string,
): Promise<{ status: number; json: Partial<T> }> {
  try {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(idem ? { 'idempotency-key': idem } : {}),
      },
      body,
    });
    return { status: res.status, json: (await res.json()) as T };
  } catch {
    return { status: 0, json: {} }; // cut off by the kill
  }
}

describe.each(dbKinds)('a scan in parts survives a SIGKILL (%s)', (db) => {
  let database: FreshPgDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.dispose();
    await database?.drop();
  });

  it(`${PARTS} parts, killed after the ${KILL_AFTER}th answer: invisible meanwhile, complete with every part after retries`, async () => {
    if (db === 'postgres') database = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    server = new ServerProcess({
      databaseUrl: database?.url,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000', WEBHOOK_WORKER: 'false' },
    });
    await server.start();
    const { key } = await server.createKey('parts');
    const opened = await post<OpenScan>(
      server,
      key,
      '/api/v1/scans',
      JSON.stringify({
        url: 'https://crawl.example/',
        siteId: 'crawl',
        sha: 'c'.repeat(40),
        complete: false,
        pages: [],
      }),
    );
    expect(opened.status).toBe(201);
    const id = String(opened.json.id);

    let acknowledged = 0;
    let killed: Promise<void> | undefined;
    const s = server;
    const answers = await Promise.all(
      Array.from({ length: PARTS }, (_, k) =>
        post<ScanPartAccepted>(s, key, `/api/v1/scans/${id}/pages`, partBody(k), `crawl-part-${k}`).then(
          (a) => {
            if (a.status === 200 && ++acknowledged === KILL_AFTER) killed = s.kill();
            return { k, ...a };
          },
        ),
      ),
    );
    await killed;
    const acked = answers.filter((a) => a.status === 200).map((a) => a.k);
    const cut = answers.filter((a) => a.status !== 200).map((a) => a.k);
    expect(answers.every((a) => a.status === 200 || a.status === 0)).toBe(true);

    await server.start();
    // Invisible, and holding whole parts only (a part is one transaction).
    expect(
      (await fetch(`${server.url}/api/v1/scans/${id}`, { headers: { authorization: `Bearer ${key}` } }))
        .status,
    ).toBe(404);
    const list = await fetch(`${server.url}/api/v1/scans?siteId=crawl`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);

    const retries = await Promise.all(
      cut.map((k) =>
        post<ScanPartAccepted>(s, key, `/api/v1/scans/${id}/pages`, partBody(k), `crawl-part-${k}`),
      ),
    );
    expect(retries.map((r) => r.status)).toEqual(cut.map(() => 200));
    const storedBeforeRetry = retries.filter((r) => r.json.part?.replayed).length;
    const done = await post<CreatedScan>(server, key, `/api/v1/scans/${id}/complete`);
    expect(done.status).toBe(200);
    expect(done.json.summary?.pages).toBe(PARTS * PAGES_PER_PART);
    expect(done.json.summary?.issues).toBe(PARTS * PAGES_PER_PART * 10);

    const read = await fetch(`${server.url}/api/v1/scans/${id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const scan = (await read.json()) as { pages: Array<{ index: number; url: string }> };
    const urls = scan.pages.map((p) => p.url);
    expect(new Set(urls).size).toBe(PARTS * PAGES_PER_PART);
    expect(scan.pages.map((p) => p.index)).toEqual(urls.map((_, i) => i));
    for (let k = 0; k < PARTS; k++)
      expect(urls.filter((u) => u.startsWith(`/part-${k}/`))).toHaveLength(PAGES_PER_PART);
    console.log(
      `scan in parts (${db}): ${PARTS} parts, SIGKILL after ${acked.length} answers, ${cut.length} cut off; ` +
        `${storedBeforeRetry} of those had been stored before the kill (their retry replayed), the others were ` +
        `stored by their retry; invisible until completed; complete with ${urls.length} pages, each part once`,
    );
  }, 120_000);
});
