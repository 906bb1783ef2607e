import fs from 'node:fs';
import pg from 'pg';
import { ServerProcess } from '../../test/helpers/server-process.js';
import { load, startBenchProcess, table, type BenchSuite, type LoadResult } from '../env.js';
import { loadMix, shareClients, type MixEntry } from './50-load.js';

/**
 * How many instances one PostgreSQL carries (PostgreSQL only): the mixed load of the load suite (50
 * clients) against one server process, then shared between two processes on the same database. Beside
 * each run, the CPU time PostgreSQL's own processes spent for this database (its backends, read from
 * /proc), so the share of a database core one instance needs at full speed can be stated.
 */

const CONNECTIONS = 50;

/** CPU seconds (user + system) of each backend connected to the database, by pid. */
async function backendCpu(databaseUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
      } catch {
        // The backend ended meanwhile.
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0);
  return total;
}

/** The mix against every url at once, its clients split evenly between them. */
async function mixOn(urls: string[], mix: MixEntry[], seconds: number) {
  const shares = shareClients(mix, CONNECTIONS / urls.length);
  const runs = await Promise.all(
    urls.flatMap((url) => mix.map((m, i) => load(url, m.request, shares[i], seconds))),
  );
  const total = (pick: (r: LoadResult) => number) => runs.reduce((a, r) => a + pick(r), 0);
  const readRuns = runs.filter((_, i) => mix[i % mix.length].name.startsWith('GET'));
  return {
    req_per_s: total((r) => r.req_per_s),
    errors: total((r) => r.errors + r.non_2xx),
    read_p99_ms: Math.max(...readRuns.map((r) => r.p99_ms)),
  };
}

const suite: BenchSuite = {
  name: 'instances',
  async run(target) {
    if (target.kind !== 'postgres') return { skipped: 'PostgreSQL only' };
    const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
    const first = await startBenchProcess(target);
    const second = new ServerProcess({
      databaseUrl: first.databaseUrl,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', WEBHOOK_WORKER: 'false' },
    });
    try {
      await second.start();
      const mix = await loadMix(first.url, first.key);
      const measure = async (urls: string[]) => {
        const before = await backendCpu(first.databaseUrl!);
        const result = await mixOn(urls, mix, seconds);
        const pgCpu = cpuSpent(before, await backendCpu(first.databaseUrl!));
        return { ...result, pg_cores: Math.round((pgCpu / seconds) * 100) / 100 };
      };
      const one = await measure([first.url]);
      const two = await measure([first.url, second.url]);
      // One instance at full speed keeps this share of a PostgreSQL core busy.
      const perCore = one.pg_cores > 0 ? Math.round((1 / one.pg_cores) * 10) / 10 : undefined;
      table([
        {
          instances: 1,
          'req/s': one.req_per_s,
          errors: one.errors,
          'read p99 ms': one.read_p99_ms,
          'PostgreSQL cores': one.pg_cores,
        },
        {
          instances: 2,
          'req/s': two.req_per_s,
          errors: two.errors,
          'read p99 ms': two.read_p99_ms,
          'PostgreSQL cores': two.pg_cores,
        },
      ]);
      return {
        one_instance_req_per_s: one.req_per_s,
        two_instances_req_per_s: two.req_per_s,
        one_instance_pg_cores: one.pg_cores,
        two_instances_pg_cores: two.pg_cores,
        instances_per_pg_core: perCore,
        errors: one.errors + two.errors,
        seconds,
        connections: CONNECTIONS,
      };
    } finally {
      await second.dispose();
      await first.close();
    }
  },
};

export default suite;
