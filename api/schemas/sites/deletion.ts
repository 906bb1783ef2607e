import { IdParam, Timestamp } from '../common.js';
import { z } from '../zod.js';

export const DeleteScanParam = IdParam;

export const ScanDeleted = z
  .object({
    id: z.string().openapi({ example: 'scn_4Qz8…' }),
    siteId: z.string(),
    deleted_at: Timestamp,
  })
  .openapi('ScanDeleted');

export const SiteDeleted = z
  .object({
    siteId: z.string(),
    deleted_at: Timestamp,
    removed: z
      .object({
        scans: z.number().int(),
        deploys: z.number().int(),
        reports: z.number().int(),
        waivers: z.number().int(),
      })
      .openapi({ description: 'How many records of each kind the deletion removed.' }),
  })
  .openapi('SiteDeleted');
