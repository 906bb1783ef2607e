import fs from 'node:fs';
import type pg from 'pg';

/**
 * How long the server itself held a request, on cores shared with other work: a request's time less
 * the longest any thread of the server's processes or of the test waited for a core meanwhile (Linux
 * schedstat), so the load other processes put on the machine is not counted as the server's.
 */

/** How long each thread of a process has waited for a core while it could run (Linux schedstat), ms. */
export function waits(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]) / 1e6);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}

/** The longest any one thread waited for a core between two readings. */
export function longestWait(before: Map<string, number>, after: Map<string, number>): number {
  let longest = 0;
  for (const [tid, ms] of after) {
    const was = before.get(tid);
    if (was !== undefined) longest = Math.max(longest, ms - was);
  }
  return longest;
}

/** Every thread of these processes (those gone meanwhile are left out). */
export function waitsOf(pids: readonly number[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of pids) {
    try {
      for (const [tid, ms] of waits(pid)) out.set(tid, ms);
    } catch {
      // A PostgreSQL connection closed meanwhile.
    }
  }
  return out;
}

/** Times `request` and how long the server held it: its time less the longest wait for a core. */
export async function heldFor(
  serverPids: readonly number[],
  request: () => Promise<unknown>,
): Promise<{ ms: number; held: number }> {
  const server0 = waitsOf(serverPids);
  const test0 = waits(process.pid);
  const t = performance.now();
  await request();
  const ms = performance.now() - t;
  const waited = Math.max(longestWait(server0, waitsOf(serverPids)), longestWait(test0, waits(process.pid)));
  return { ms, held: Math.max(0, ms - waited) };
}

/** The server's longest event-loop delay since the previous scrape (Node's histogram, through /metrics). */
export async function loopHeldMs(url: string, adminToken: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { 'x-admin-token': adminToken } });
  const text = await res.text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1]) * 1000;
}

/** The server's process and, on PostgreSQL, its database's backends: every process a request may wait on. */
export async function serverProcesses(pid: number, watcher: pg.Client | undefined): Promise<number[]> {
  if (!watcher) return [pid];
  const { rows } = await watcher.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return [pid, ...rows.map((r) => r.pid)];
}
