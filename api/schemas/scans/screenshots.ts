import { SCREENSHOT_MAX_BYTES } from '../../domain/scans/png.js';
import { SCREENSHOTS_PER_PAGE } from '../../../core/scans/pictures.js';
import { z } from '../zod.js';
import { ViewportName } from '../common.js';

/** Element screenshots: what `POST /api/v1/scans/{id}/screenshots` takes and answers. */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const ScreenshotUploadItem = z
  .object({
    page_url: z.string().min(1).max(4096).openapi({
      description: 'The page as the scan lists it (its submitted `url`).',
      example: 'https://example.com/pricing',
    }),
    viewport: ViewportName.optional().openapi({
      description: "The page's viewport as the scan lists it; absent: the page that names none.",
    }),
    rule: z.string().min(1).max(200).openapi({ example: 'color-contrast' }),
    selector: z.string().min(1).max(4096).openapi({
      description: "The violation's element as the scan stores it (axe's target, frames joined with ` |> `).",
      example: '.btn-secondary',
    }),
    png: z
      .string()
      .min(1)
      .max(Math.ceil(SCREENSHOT_MAX_BYTES / 3) * 4)
      .regex(BASE64, { message: 'must be base64' })
      .openapi({ description: `The PNG file, base64; at most ${SCREENSHOT_MAX_BYTES} bytes.` }),
  })
  .strict()
  .openapi('ScreenshotUploadItem');

export const ScreenshotUpload = z
  .object({ images: z.array(ScreenshotUploadItem).min(1).max(SCREENSHOTS_PER_PAGE) })
  .strict()
  .openapi('ScreenshotUpload', {
    description:
      'Pictures of violations of a complete scan, each linked to the violation with this page, rule and selector.',
  });
export type ScreenshotUpload = z.infer<typeof ScreenshotUpload>;

export const StoredScreenshot = z
  .object({
    id: z.string(),
    page_index: z.number().int().min(0),
    page_url: z.string(),
    rule: z.string(),
    selector: z.string(),
    fingerprint: z
      .string()
      .openapi({ description: "The issue's fingerprint, as the scan and the gate list it." }),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    created: z.boolean().openapi({ description: 'False when the same picture was already stored.' }),
  })
  .openapi('StoredScreenshot');

export const StoredScreenshots = z.object({ images: z.array(StoredScreenshot) }).openapi('StoredScreenshots');
export type StoredScreenshots = z.infer<typeof StoredScreenshots>;

export const ScreenshotParams = z.object({
  id: z.string().min(1).max(100),
  image: z.string().min(1).max(100),
});
