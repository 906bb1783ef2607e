import type { ApiContext } from '../context.js';

/** Work the server does in the background; stopped (and awaited) on shutdown. */
export interface BackgroundJob {
  name: string;
  start(): void;
  stop(): Promise<void>;
}

/** Runs `tick` every `intervalMs` without overlapping itself; errors are logged, never thrown. */
export function intervalJob(
  ctx: ApiContext,
  name: string,
  intervalMs: number,
  tick: () => Promise<void>,
): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = tick()
      .catch((err) => ctx.logger.error({ err, job: name }, 'background job failed'))
      .finally(() => {
        running = undefined;
      });
  };
  return {
    name,
    start() {
      stopped = false;
      timer = setInterval(run, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
