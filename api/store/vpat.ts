import type { Knex } from 'knex';
import type { VpatReport } from '../domain/vpat-report.js';
import { recordEvent } from '../events/outbox.js';

interface Row {
  id: string;
  org: string;
  site_id: string;
  scan_id: string;
  status: string;
  edition: string;
  wcag_version: string;
  level: string;
  report: string;
  created_at: string;
}

/** Generated reports: inserted once with their `vpat.generated` event, never updated. */
export class VpatRepository {
  constructor(private readonly db: Knex) {}

  /** Stores the report and its outbox event in one transaction: both exist, or neither. */
  async insert(org: string, report: VpatReport): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx<Row>('vpat_reports').insert({
        id: report.id,
        org,
        site_id: report.siteId,
        scan_id: report.scan_id,
        status: report.status,
        edition: report.edition,
        wcag_version: report.wcag_version,
        level: report.level,
        report: JSON.stringify(report),
        created_at: report.created_at,
      });
      await recordEvent(trx, {
        org,
        type: 'vpat.generated',
        data: {
          id: report.id,
          siteId: report.siteId,
          scan_id: report.scan_id,
          status: report.status,
          edition: report.edition,
          wcag_version: report.wcag_version,
          level: report.level,
          summary: report.summary,
          created_at: report.created_at,
        },
      });
    });
  }

  async find(org: string, id: string): Promise<VpatReport | undefined> {
    const row = await this.db<Row>('vpat_reports').where({ org, id }).first('report');
    return row ? (JSON.parse(row.report) as VpatReport) : undefined;
  }
}
