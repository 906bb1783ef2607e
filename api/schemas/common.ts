import { z } from './zod.js';

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-23T07:19:00.000Z' });

export const SiteId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,99}$/,
    'must be 1-100 characters of a-z, 0-9, ".", "_" or "-", starting with a letter or digit',
  )
  .openapi({ example: 'shop-web' });

export const Sha = z
  .string()
  .regex(/^[0-9a-fA-F]{7,64}$/, 'must be a hex commit sha (7-64 characters)')
  .transform((s) => s.toLowerCase())
  .openapi({ example: '3f786850e387550fdab836ed7e6dc881de23001b' });

/** A page's viewport as scans name it (`390x844`, `iPhone 13`): one line, printable, no space at its ends. */
export const ViewportName = z
  .string()
  .max(100)
  .regex(
    // eslint-disable-next-line no-control-regex
    /^[^\s\u0000-\u001f\u007f](?:[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f])?$/,
    'must be one line of printable text without spaces at its ends',
  )
  .openapi({ example: '390x844' });

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    request_id: z.string(),
    errors: z.array(z.object({ pointer: z.string(), detail: z.string() })).optional(),
    limit: z
      .string()
      .optional()
      .openapi({ description: 'The limit that refused the request, as `GET /api/v1` publishes it.' }),
    limit_value: z.number().int().optional().openapi({ description: 'The value of that limit.' }),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details.' });

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Page size (1-100).' }),
  cursor: z.string().max(500).optional().openapi({ description: 'The `next_cursor` of the previous page.' }),
});

/** A cursor-paginated list: `{data, next_cursor}` (also as a `Link: <…>; rel="next"` header). */
export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() }).openapi(name);
}

export const IdParam = z.object({ id: z.string().min(1).max(100) });
