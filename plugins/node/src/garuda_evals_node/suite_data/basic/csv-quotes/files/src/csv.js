/**
 * Parses CSV text into rows of string fields.
 * Lines end with \n or \r\n; a final line break does not start an empty row.
 */
export function parseCsv(text) {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => line.split(','));
}

/** Parses CSV with a header row into objects keyed by the header's names. */
export function parseRecords(text) {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  return rows.map((row) => {
    if (row.length !== header.length) {
      throw new SyntaxError(`expected ${header.length} fields, got ${row.length}: ${row.join('|')}`);
    }
    return Object.fromEntries(header.map((name, i) => [name, row[i]]));
  });
}
