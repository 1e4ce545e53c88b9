/**
 * Parses CSV text into rows of string fields.
 * Lines end with \n or \r\n; a final line break does not start an empty row.
 * A field may be quoted: inside quotes, commas and line breaks are data and "" is one ".
 */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      endField();
    } else if (ch === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 1;
    } else if (ch === '\n') {
      endRow();
    } else {
      field += ch;
    }
    i += 1;
  }
  if (quoted) throw new SyntaxError('unterminated quoted field');
  if (field !== '' || row.length > 0) endRow();
  return rows;
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
