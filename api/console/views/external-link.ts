import { markup, type Html } from '../../../core/text/html.js';
import { isHttpUrl } from '../../../core/url-normalisation.js';

/**
 * A URL someone else supplied (an issue's help page): a link only when it is http(s), otherwise the
 * address as text, so a `javascript:` or `data:` URL never becomes something to click.
 */
export function externalLink(url: string, label: string): Html {
  return isHttpUrl(url)
    ? markup`<a href=${url}>${label}</a>`
    : markup`<span>${label}: <code>${url}</code></span>`;
}
