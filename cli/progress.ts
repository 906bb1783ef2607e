import { oneLine } from '../core/text/github-markdown.js';
import type { ScanProgress } from '../scanner/options.js';

/**
 * Progress on stderr, so stdout stays for the result: a bar redrawn in place on a terminal, one line per
 * page otherwise (CI logs).
 */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): ScanProgress {
  const tty = stream.isTTY === true;
  const bar = (done: number, total: number) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : 0;
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
  };
  return {
    planned: (total) => {
      if (!tty) stream.write(`${total} ${total === 1 ? 'page' : 'pages'} to scan\n`);
    },
    page: (p, done, total) => {
      // A page's URL and error are the page's words: no escape sequence of theirs reaches the terminal.
      const url = oneLine(p.url);
      const line = `${p.ok ? 'ok' : 'FAILED'} ${url}: ${oneLine(p.detail)}`;
      if (tty) {
        if (!p.ok) stream.write(`\r\x1b[K${line}\n`);
        stream.write(`\r\x1b[K${bar(done, total)} ${url.slice(0, 60)}`);
        if (done === total) stream.write('\n');
      } else {
        stream.write(`[${done}/${total}] ${line}\n`);
      }
    },
    note: (message) => stream.write(`${message}\n`),
  };
}
