/**
 * Wraps `text` into lines of at most `width` characters and returns the lines.
 *
 * - Words are separated by any run of whitespace; lines hold words joined by one space.
 * - Greedy: each line takes as many words as fit.
 * - A word longer than `width` is not split: it gets a line of its own.
 * - Blank input gives an empty array. `width` must be a positive integer (else RangeError).
 */
export function wrapText(text, width) {
  if (!Number.isInteger(width) || width < 1) {
    throw new RangeError(`width must be a positive integer, got ${width}`);
  }
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length <= width) {
      line += ` ${word}`;
    } else {
      if (line) lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Wraps and joins with newlines. */
export function wrapParagraph(text, width) {
  return wrapText(text, width).join('\n');
}
