import type { Logger } from 'pino';
import type { CheckRunPublisher } from './check-run-publisher.js';

export interface CheckRunRecoveryOptions {
  publisher: CheckRunPublisher;
  /** Claims deploy events whose check run stayed pending longer than `olderThanMs` (gate service). */
  claimStale: (olderThanMs: number) => Promise<string[]>;
  logger: Logger;
  /** A check run pending this long was abandoned: its process stopped before posting it. */
  olderThanMs: number;
  everyMs: number;
}

export interface CheckRunRecovery {
  /** Posts every abandoned check run claimed now; resolves with how many. */
  runOnce(): Promise<number>;
  stop(): void;
}

/**
 * The trigger answers before its check run is posted, so a process that stops in between (crash,
 * deploy) leaves the deploy event `pending`. This sweep, at start and then periodically, posts such
 * events again; the claim makes sure only one instance posts each of them.
 */
export function startCheckRunRecovery(options: CheckRunRecoveryOptions): CheckRunRecovery {
  const log = options.logger.child({ component: 'check-run-recovery' });
  let running: Promise<number> | undefined;

  async function sweep(): Promise<number> {
    const ids = await options.claimStale(options.olderThanMs);
    for (const id of ids) await options.publisher.publish(id);
    if (ids.length > 0) log.info({ deployIds: ids }, 'posted check runs left pending by a stopped process');
    return ids.length;
  }

  const runOnce = () =>
    (running ??= sweep()
      .catch((err: unknown) => {
        log.warn({ err }, 'could not look for pending check runs');
        return 0;
      })
      .finally(() => (running = undefined)));

  void runOnce();
  const timer = setInterval(() => void runOnce(), options.everyMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
