import { z } from 'zod';

/**
 * What the gate without a service leaves aside (the configuration file's `ignore`), and the calendar dates
 * that end an ignore or a baseline entry. Shared by the CLI and the Action, which both gate locally.
 */

/** `YYYY-MM-DD` that is a day of the calendar (not 2026-02-30, which Date.parse would take). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** A calendar date, `YYYY-MM-DD`: it applies until the end of that day (UTC). */
export const until = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine(isCalendarDate, 'must be a date that exists');

/** An entry's or an ignore's `until` has passed: it lasts to the end of that day (UTC), then stops applying. */
export function expired(date: string | undefined, now: Date): boolean {
  return !!date && Date.parse(`${date}T23:59:59.999Z`) < now.getTime();
}

/** One line of text, not empty: a value with a line break would be read as two. */
const text = z
  .string()
  .regex(/^[^\r\n]*$/, 'must be one line')
  .min(1, 'must not be empty');

/** An issue the gate leaves aside: by rule, selector and page (every one given must match), with a reason. */
export const IgnoreSchema = z
  .strictObject({
    rule: text.optional(),
    selector: text.optional(),
    url: text.optional(),
    reason: text,
    until: until.optional(),
  })
  .refine((i) => i.rule || i.selector || i.url, 'must name a rule, a selector or a url');
export type Ignore = z.infer<typeof IgnoreSchema>;
