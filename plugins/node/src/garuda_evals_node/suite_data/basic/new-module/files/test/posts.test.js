import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postUrl, uniqueSlugs } from '../src/posts.js';

test('post URLs use the year and the slug', () => {
  assert.equal(
    postUrl({ title: 'Ten Things I Learned About Déjà Vu, Again and Again', published: '2024-03-05T10:00:00Z' }),
    '/2024/ten-things-i-learned-about-deja-vu-again',
  );
});

test('repeated titles get numbered slugs', () => {
  assert.deepEqual(uniqueSlugs(['Hi there', 'hi, there!', 'Other']), ['hi-there', 'hi-there-2', 'other']);
});
