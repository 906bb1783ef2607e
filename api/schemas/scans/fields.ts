import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { z } from '../zod.js';

/** Stored identifiers (rules, branches, engine names): no U+0000, which PostgreSQL cannot store. */
export const Identifier = (max: number) => z.string().min(1).max(max).refine(isNulFree, NUL_MESSAGE);

export const NullableString = z.string().nullable().optional();

/**
 * A branch as scans store it: its name. `refs/heads/main` (what `$GITHUB_REF` holds) becomes `main`,
 * so a pipeline that sends the ref still finds its baselines on the site's `base_branch`.
 */
export function branchName(branch: string): string {
  return branch.startsWith('refs/heads/') && branch.length > 'refs/heads/'.length
    ? branch.slice('refs/heads/'.length)
    : branch;
}
