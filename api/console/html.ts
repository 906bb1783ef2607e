import { createRequire } from 'node:module';
import htm from 'htm';

/**
 * The console's only way to write markup: tagged templates turned into preact nodes and rendered to a
 * string. Every interpolated value is escaped as text or as an attribute value by the renderer, so no
 * page builds HTML by concatenation.
 *
 * preact's own type declarations pull the DOM library into every file of the program (which changes
 * the server's `fetch` and `Buffer` types), so its two functions are loaded with a narrow local type.
 */
const require = createRequire(import.meta.url);

/** A rendered-to-be node; opaque to the pages. */
export interface Html {
  readonly __html: unique symbol;
}

type CreateElement = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => Html;

const { h } = require('preact') as { h: CreateElement };
const { render } = require('preact-render-to-string') as { render: (node: Html) => string };

const bound = (htm as unknown as { bind: (h: CreateElement) => unknown }).bind(h);

export const markup = bound as (strings: TemplateStringsArray, ...values: unknown[]) => Html;

export function renderDocument(node: Html): string {
  return `<!doctype html>${render(node)}`;
}
