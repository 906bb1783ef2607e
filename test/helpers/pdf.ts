import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PDF as poppler reads it: its words as a reader gets them (whatever the line breaks of table cells) and
 * pdfinfo's description (tagged, title, pages).
 */
export function readPdf(pdf: Buffer): { text: string; info: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'a11y-pdf-'));
  try {
    const file = path.join(dir, 'report.pdf');
    writeFileSync(file, pdf);
    return {
      text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
      info: execFileSync('pdfinfo', [file], { encoding: 'utf8' }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
