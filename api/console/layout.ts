import { markup, type Html } from '../../core/text/html.js';
import type { Visitor } from './session.js';
import { STYLESHEET_PATH } from './assets.js';

export interface LayoutOptions {
  /** The page's own name; the document title adds the product's. */
  title: string;
  visitor?: Visitor;
  /** Trail above the heading: [label, href] pairs, the current page last without href. */
  breadcrumbs?: Array<[string, string?]>;
  main: Html | Html[];
}

function header(visitor: Visitor | undefined): Html {
  return markup`<header class="site-header">
    <div class="bar">
      <a class="brand" href="/">a11y-gate</a>
      ${
        visitor
          ? markup`<nav aria-label="Account" class="account">
              <span class="who">${visitor.user.name} · ${visitor.user.org}</span>
              <form method="post" action="/sign-out" class="inline">
                <input type="hidden" name="_csrf" value=${visitor.csrf} />
                <button type="submit" class="link-button">Sign out</button>
              </form>
            </nav>`
          : null
      }
    </div>
  </header>`;
}

function breadcrumbs(trail: Array<[string, string?]> | undefined): Html | null {
  if (!trail || trail.length === 0) return null;
  return markup`<nav aria-label="Breadcrumb" class="crumbs">
    <ol>
      ${trail.map(([label, href]) =>
        href
          ? markup`<li><a href=${href}>${label}</a></li>`
          : markup`<li><span aria-current="page">${label}</span></li>`,
      )}
    </ol>
  </nav>`;
}

/** Every page: language, skip link, landmarks (banner, navigation, main, contentinfo), one h1. */
export function layout(o: LayoutOptions): Html {
  return markup`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <title>${o.title} · a11y-gate</title>
      <link rel="stylesheet" href=${STYLESHEET_PATH} />
    </head>
    <body>
      <a class="skip-link" href="#main">Skip to main content</a>
      ${header(o.visitor)}
      <main id="main" tabindex="-1">
        ${breadcrumbs(o.breadcrumbs)}
        <h1>${o.title}</h1>
        ${o.main}
      </main>
      <footer class="site-footer"><p>a11y-gate console</p></footer>
    </body>
  </html>`;
}
