import {
  load,
  seeded,
  startBenchProcess,
  table,
  type BenchSuite,
  type LoadRequest,
  type LoadResult,
} from '../env.js';

/**
 * Mixed load: 50 concurrent clients for 20 s (BENCH_LOAD_SECONDS) against the real server process,
 * submitting small scans, triggering gates and reading deploy events at the same time; then the same
 * 50 clients on `GET /api/v1` (no database, no auth: the HTTP stack's ceiling) for our ratio to it.
 */

const CONNECTIONS = 50;
const SITE = 'load-site';
const PAGES = 5;
const ISSUES_PER_PAGE = 10;
const RULES = ['color-contrast', 'image-alt', 'label', 'link-name', 'button-name', 'heading-order'];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

function scanBody(sha: string, branch: string, random: () => number): string {
  return JSON.stringify({
    url: `https://${SITE}.example/`,
    siteId: SITE,
    sha,
    branch,
    pages: Array.from({ length: PAGES }, (_, p) => ({
      url: `https://${SITE}.example/page-${p}`,
      title: `Page ${p}`,
      issues: Array.from({ length: ISSUES_PER_PAGE }, (_, i) => ({
        rule: RULES[Math.floor(random() * RULES.length)],
        impact: IMPACTS[Math.floor(random() * IMPACTS.length)],
        selector: `main > div:nth-child(${i + 1})`,
        html: `<div class="c${i}">x</div>`,
        wcag: ['1.4.3'],
      })),
    })),
  });
}

const hex40 = (n: number) => n.toString(16).padStart(40, '0');

export interface MixEntry {
  name: string;
  request: LoadRequest;
  weight: number;
}

/**
 * The mixed load's requests on a fresh server: small scan submits, gate triggers and reads of one deploy
 * event (endpoints missing from the OpenAPI document are left out), after the scans and the event they
 * need.
 */
export async function loadMix(url: string, key: string): Promise<MixEntry[]> {
  const random = seeded(50);
  const json = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const doc = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const has = (method: string, path: string) => Boolean(doc.paths[path]?.[method]);
  const post = async (path: string, body: string) => {
    const res = await fetch(url + path, { method: 'POST', headers: json, body });
    const parsed = (await res.json()) as { id?: string };
    if (res.status !== 201) throw new Error(`setup ${path}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed;
  };

  const mix: MixEntry[] = [];
  const headSha = hex40(0xbbbb);
  if (has('post', '/api/v1/scans')) {
    await post('/api/v1/scans', scanBody(hex40(0xaaaa), 'main', random));
    await post('/api/v1/scans', scanBody(headSha, 'feature', random));
    let n = 0x100000;
    mix.push({
      name: 'POST /api/v1/scans',
      weight: 20,
      request: {
        method: 'POST',
        path: '/api/v1/scans',
        headers: json,
        nextBody: () => scanBody(hex40(n++), 'feature', random),
      },
    });
  }
  let readPath: string | undefined;
  if (has('post', '/api/v1/deploy/trigger')) {
    const trigger = JSON.stringify({ siteId: SITE, sha: headSha });
    const event = await post('/api/v1/deploy/trigger', trigger);
    readPath = `/api/v1/deploy/${event.id}`;
    mix.push({
      name: 'POST /api/v1/deploy/trigger',
      weight: 15,
      request: { method: 'POST', path: '/api/v1/deploy/trigger', headers: json, body: trigger },
    });
  }
  if (!readPath && has('get', '/api/v1/scans/{id}')) {
    const list = (await (await fetch(`${url}/api/v1/scans?limit=1`, { headers: json })).json()) as {
      data?: Array<{ id: string }>;
    };
    if (list.data?.[0]) readPath = `/api/v1/scans/${list.data[0].id}`;
  }
  readPath ??= '/api/v1/keys/me';
  mix.push({
    name: `GET ${readPath.replace(/\/[a-z]{3}_[^/]+$/, '/:id')}`,
    weight: 15,
    request: { method: 'GET', path: readPath, headers: { authorization: `Bearer ${key}` } },
  });
  return mix;
}

/** `connections` clients shared between the entries by weight (at least one each). */
export function shareClients(mix: MixEntry[], connections: number): number[] {
  const totalWeight = mix.reduce((a, m) => a + m.weight, 0);
  const shares = mix.map((m) => Math.max(1, Math.round((m.weight / totalWeight) * connections)));
  shares[0] += connections - shares.reduce((a, b) => a + b, 0);
  return shares;
}

const suite: BenchSuite = {
  name: 'load',
  async run(target) {
    const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
    const server = await startBenchProcess(target);
    try {
      const mix = await loadMix(server.url, server.key);

      // 50 clients in all, shared between the endpoints by weight.
      const shares = shareClients(mix, CONNECTIONS);
      const results = await Promise.all(mix.map((m, i) => load(server.url, m.request, shares[i], seconds)));
      const peakRss = server.peakRssMb();

      const ceiling = await load(server.url, { method: 'GET', path: '/api/v1' }, CONNECTIONS, seconds);
      const total = results.reduce((a, r) => a + r.req_per_s, 0);
      const errors = results.reduce((a, r) => a + r.errors + r.non_2xx, 0);
      const endpoints: Record<string, LoadResult & { connections: number }> = {};
      mix.forEach((m, i) => (endpoints[m.name] = { ...results[i], connections: shares[i] }));

      table([
        ...mix.map((m, i) => ({
          endpoint: m.name,
          clients: shares[i],
          'req/s': results[i].req_per_s,
          'p50 ms': results[i].p50_ms,
          'p99 ms': results[i].p99_ms,
          errors: results[i].errors,
          'non-2xx': results[i].non_2xx,
        })),
        {
          endpoint: 'mixed total',
          clients: CONNECTIONS,
          'req/s': total,
          'p50 ms': '',
          'p99 ms': '',
          errors: results.reduce((a, r) => a + r.errors, 0),
          'non-2xx': results.reduce((a, r) => a + r.non_2xx, 0),
        },
        {
          endpoint: 'GET /api/v1 (ceiling)',
          clients: CONNECTIONS,
          'req/s': ceiling.req_per_s,
          'p50 ms': ceiling.p50_ms,
          'p99 ms': ceiling.p99_ms,
          errors: ceiling.errors,
          'non-2xx': ceiling.non_2xx,
        },
      ]);
      const ratio = Number((total / ceiling.req_per_s).toFixed(3));
      console.log(
        `mixed load: ${total} req/s over ${seconds} s with ${CONNECTIONS} clients = ${ratio} of the HTTP ceiling ` +
          `(${ceiling.req_per_s} req/s); ${errors} errors; server peak RSS ${peakRss ?? '?'} MB`,
      );
      return {
        seconds,
        connections: CONNECTIONS,
        endpoints,
        req_per_s: total,
        errors,
        ceiling_req_per_s: ceiling.req_per_s,
        ceiling_p50_ms: ceiling.p50_ms,
        ceiling_p99_ms: ceiling.p99_ms,
        ratio_to_ceiling: ratio,
        deploy_read_p99_ms: endpoints['GET /api/v1/deploy/:id']?.p99_ms,
        peak_rss_mb: peakRss,
      };
    } finally {
      await server.close();
    }
  },
};

export default suite;
