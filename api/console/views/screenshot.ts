import type { IssueScreenshot } from '../../services/scans/screenshot-links.js';
import { markup, type Html } from '../../../core/text/html.js';

/** An issue's element screenshot as a fact of its card: the picture, described by its alt text. */
export function pictureFact(shot: IssueScreenshot | undefined): Html | null {
  if (!shot?.url) return null;
  return markup`<dt>Picture</dt>
    <dd>
      <img class="shot" src=${shot.url} alt=${shot.alt} width=${shot.width} height=${shot.height} loading="lazy" />
    </dd>`;
}
