/** CSV when asked by `format`, or when the request accepts CSV and not JSON. */
export function wantsCsv(format: 'json' | 'csv' | undefined, accept: string | undefined): boolean {
  if (format) return format === 'csv';
  return /\btext\/csv\b/.test(accept ?? '') && !/\bapplication\/json\b/.test(accept ?? '');
}

/** A CSV answer (RFC 4180, one header row) offered as a download named `filename`. */
export function csvAnswer(body: string, filename: string) {
  return {
    status: 200 as const,
    body,
    contentType: 'text/csv; charset=utf-8; header=present',
    headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
  };
}
