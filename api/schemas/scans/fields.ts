import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { z } from '../zod.js';

/** Stored identifiers (rules, branches, engine names): no U+0000, which PostgreSQL cannot store. */
export const Identifier = (max: number) => z.string().min(1).max(max).refine(isNulFree, NUL_MESSAGE);

export const NullableString = z.string().nullable().optional();
