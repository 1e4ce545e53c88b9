/**
 * Parses a page-range spec such as "1-3, 7, 10-12" into the list of page numbers.
 *
 * Rules:
 * 1. Parts are separated by commas; spaces around a part are ignored.
 * 2. A part is a single page "n" or an inclusive range "a-b" (both ends included).
 * 3. Page numbers are positive integers; "0", "-2", "1.5" or "x" are a SyntaxError.
 * 4. A range whose start is after its end ("5-3") is a RangeError.
 * 5. The result is sorted ascending and holds each page once.
 * 6. An empty or blank spec gives an empty list; an empty part ("1,,2") is a SyntaxError.
 * 7. `max` (default Infinity) is the last page: a page above it is a RangeError.
 */
export function parseRanges(spec, { max = Infinity } = {}) {
  if (spec.trim() === '') return [];
  const pages = new Set();
  for (const raw of spec.split(',')) {
    const [start, end] = parsePart(raw.trim());
    if (start > end) throw new RangeError(`range ${raw.trim()} runs backwards`);
    if (end > max) throw new RangeError(`page ${end} is after the last page ${max}`);
    for (let page = start; page <= end; page += 1) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}

function parsePart(part) {
  const match = /^(\d+)(?:-(\d+))?$/.exec(part);
  if (!match) throw new SyntaxError(`not a page or a range: "${part}"`);
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  if (start < 1 || end < 1) throw new SyntaxError(`pages start at 1: "${part}"`);
  return [start, end];
}
