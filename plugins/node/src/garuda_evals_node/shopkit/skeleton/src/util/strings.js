/** "Crème Brûlée!" -> "creme-brulee". */
export function slugify(text) {
  return String(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** "hello big world" -> "Hello Big World". */
export function titleCase(text) {
  return String(text).replace(/\b([a-z])/g, (letter) => letter.toUpperCase());
}

/** Cuts `text` to at most `max` characters, ending with "…" when it was cut. */
export function truncate(text, max) {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Fills `{name}` placeholders from `values`; an unknown placeholder is an error. */
export function fillTemplate(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`template value missing: ${key}`);
    return String(values[key]);
  });
}
