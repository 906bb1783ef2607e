import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface Measured {
  seconds: number;
  peakRssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The summed resident memory of a process and all its descendants (the browser's processes included). */
function treeRssKb(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      rss.set(Number(entry), Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Runs a command, timing it and sampling its process tree's memory every 200 ms. */
export async function measure(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<Measured> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid) peak = Math.max(peak, treeRssKb(child.pid));
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    peakRssMb: Math.round(peak / 1024),
    code,
    stdout,
    stderr,
  };
}
