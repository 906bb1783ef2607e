import type { ZodType } from 'zod';
import { jsonPointer, problems } from './problem.js';
import { type FieldError } from '../domain/errors.js';

/**
 * Parses `value` with `schema`; a failure becomes 422 with one JSON pointer per problem. `where` is
 * the pointer prefix: `#` for the body, `#/query` for query parameters.
 */
export function validateOrThrow<T>(schema: ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.slice(0, 100).map((issue) => ({
    pointer: jsonPointer(issue.path, where),
    detail: issue.message,
  }));
  throw problems.validation(errors);
}
