import { createRequire } from 'node:module';
import htm from 'htm';

/**
 * The one way to write HTML (the console's pages, the CLI's report): tagged templates turned into preact
 * nodes and rendered to a string. Every interpolated value is escaped as text or as an attribute value by
 * the renderer, so nothing builds HTML by concatenation.
 *
 * preact's own type declarations pull the DOM library into every file of the program (which changes
 * the server's `fetch` and `Buffer` types), so its two functions are loaded with a narrow local type.
 */
/** A rendered-to-be node; opaque to the pages. */
export interface Html {
  readonly __html: unique symbol;
}

type CreateElement = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => Html;

/*
 * Node's ES modules have no `require`, so the service takes Node's own from createRequire. The CLI's bundle
 * (ncc) has one, and needs these two calls written as plain `require` to bundle the packages: it cannot
 * follow createRequire.
 */
const bundled = typeof require === 'function';
const load = bundled ? null : createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-require-imports */
const { h } = (bundled ? require('preact') : load!('preact')) as { h: CreateElement };
const { render } = (bundled ? require('preact-render-to-string') : load!('preact-render-to-string')) as {
  render: (node: Html) => string;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const bound = (htm as unknown as { bind: (h: CreateElement) => unknown }).bind(h);

const build = bound as (strings: TemplateStringsArray, ...values: unknown[]) => Html;

/**
 * Characters that give text a direction of its own: right-to-left scripts and the bidi controls. Text
 * with none of them (ASCII, Latin, CJK…) cannot reorder the page around it, so it needs no isolation.
 */
const DIRECTIONAL =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
/** Elements whose content is text only: a `<bdi>` there would show as its tag. */
const RAW_TEXT = /<(title|textarea|option|script|style)\b[^>]*>[^<]*$/i;
/** Per template: which interpolations stand in text content (not in a tag, not in raw text). */
const textSlots = new WeakMap<TemplateStringsArray, boolean[]>();

function slotsOf(strings: TemplateStringsArray): boolean[] {
  let slots = textSlots.get(strings);
  if (!slots) {
    slots = [];
    let before = '';
    for (let i = 0; i < strings.length - 1; i++) {
      before += strings[i];
      const inTag = before.lastIndexOf('<') > before.lastIndexOf('>');
      slots.push(!inTag && !RAW_TEXT.test(before));
    }
    textSlots.set(strings, slots);
  }
  return slots;
}

/**
 * Writes markup. Every interpolated string shown as text that carries a direction of its own (a page
 * URL, a name or a reason in Arabic or Hebrew, or with bidi controls) is isolated in `<bdi>`, so it
 * cannot reorder the text around it.
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const slots = slotsOf(strings);
  const isolated = values.map((v, i) =>
    slots[i] && typeof v === 'string' && DIRECTIONAL.test(v) ? h('bdi', null, v) : v,
  );
  return build(strings, ...isolated);
}

export function renderDocument(node: Html): string {
  return `<!doctype html>${render(node)}`;
}
