import { slugify } from './slugify.js';

/** The URL of a blog post: /<year>/<slug of the title>. */
export function postUrl(post) {
  const year = new Date(post.published).getUTCFullYear();
  return `/${year}/${slugify(post.title, { maxLength: 40 })}`;
}

/** Unique slugs for a list of titles: repeats get -2, -3, ... */
export function uniqueSlugs(titles) {
  const seen = new Map();
  return titles.map((title) => {
    const slug = slugify(title);
    const count = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, count);
    return count === 1 ? slug : `${slug}-${count}`;
  });
}
