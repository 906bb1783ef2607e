import { domainErrors } from '../../domain/errors.js';
import type { ApiContext } from '../../context.js';
import { deployVersion, findDeployRecord, findDeployVersion } from '../../store/gate/deploys.js';
import { present } from './deploy-view.js';

/**
 * A deploy event as `GET /api/v1/deploy/{id}` answers it, as JSON text. An event never changes once
 * written but for its check run, so the texts of the events read last are kept with the version they
 * were made from (store/gate/deploys.ts): a read compares the stored version, one small row, and reads,
 * presents and serialises the whole event only when it moved. The texts are kept per service, up to
 * TEXT_BUDGET characters, the least recently read leaving first.
 */

const TEXT_BUDGET = 8_000_000;

interface Kept {
  version: string;
  text: string;
}

class RecentDeployTexts {
  private readonly texts = new Map<string, Kept>();
  private size = 0;

  get(key: string): Kept | undefined {
    const kept = this.texts.get(key);
    if (kept) {
      // Map keeps insertion order: moved to the end, it is the most recently read.
      this.texts.delete(key);
      this.texts.set(key, kept);
    }
    return kept;
  }

  set(key: string, kept: Kept): void {
    this.delete(key);
    if (kept.text.length > TEXT_BUDGET) return;
    this.texts.set(key, kept);
    this.size += kept.text.length;
    for (const [oldest, k] of this.texts) {
      if (this.size <= TEXT_BUDGET) break;
      this.texts.delete(oldest);
      this.size -= k.text.length;
    }
  }

  delete(key: string): void {
    const kept = this.texts.get(key);
    if (!kept) return;
    this.texts.delete(key);
    this.size -= kept.text.length;
  }
}

const recent = new WeakMap<ApiContext, RecentDeployTexts>();

export async function deployEventJson(ctx: ApiContext, org: string, id: string): Promise<string> {
  let texts = recent.get(ctx);
  if (!texts) recent.set(ctx, (texts = new RecentDeployTexts()));
  const key = `${org}\n${id}`;
  const version = await findDeployVersion(ctx.db, org, id);
  if (version === undefined) {
    texts.delete(key);
    throw domainErrors.notFound('deploy event');
  }
  const kept = texts.get(key);
  if (kept?.version === version) return kept.text;
  const record = await findDeployRecord(ctx.db, org, id);
  if (!record) throw domainErrors.notFound('deploy event');
  const text = JSON.stringify(present(record));
  texts.set(key, { version: deployVersion(record), text });
  return text;
}
