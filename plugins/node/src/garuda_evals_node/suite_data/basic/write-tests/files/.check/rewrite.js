/**
 * The same contract as src/ranges.js, written differently: tests that describe what the
 * module does pass against this file as well; tests that recognise its text do not.
 */
export function parseRanges(spec, { max = Infinity } = {}) {
  if (!spec.trim()) return [];
  const pages = [];
  spec.split(',').forEach((raw) => {
    const part = raw.trim();
    const dash = part.indexOf('-');
    const first = dash === -1 ? part : part.slice(0, dash);
    const last = dash === -1 ? part : part.slice(dash + 1);
    if (!isDigits(first) || !isDigits(last)) {
      throw new SyntaxError(`not a page or a range: "${part}"`);
    }
    const from = Number(first);
    const to = Number(last);
    if (from === 0 || to === 0) throw new SyntaxError(`pages start at 1: "${part}"`);
    if (from > to) throw new RangeError(`range ${part} runs backwards`);
    if (to > max) throw new RangeError(`page ${to} is after the last page ${max}`);
    for (let page = from; page <= to; page += 1) pages.push(page);
  });
  pages.sort((a, b) => a - b);
  return pages.filter((page, index) => index === 0 || pages[index - 1] !== page);
}

function isDigits(text) {
  if (text.length === 0) return false;
  for (const char of text) {
    if (char < '0' || char > '9') return false;
  }
  return true;
}
