/**
 * A URL slug of `text`: lower-case ASCII letters and digits joined by `separator`.
 * `maxLength` cuts the slug without leaving a separator at the end.
 */
export function slugify(text, { separator = '-', maxLength } = {}) {
  const words = String(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = words.join(separator);
  if (maxLength !== undefined && slug.length > maxLength) {
    slug = slug.slice(0, maxLength);
    while (separator && slug.endsWith(separator)) {
      slug = slug.slice(0, -separator.length);
    }
  }
  return slug;
}
