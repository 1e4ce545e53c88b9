// Package text turns titles into URL parts.
package text

import "strings"

// MaxSlug is the longest slug Slugify returns.
const MaxSlug = 32

// Slugify turns a title into the part of a URL that names it: lower-case ASCII letters
// and digits, every other run of characters one hyphen, none at either end, cut to
// MaxSlug characters at a hyphen when one is near.
func Slugify(title string) string {
	var b strings.Builder
	pending := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if pending && b.Len() > 0 {
				b.WriteByte('-')
			}
			pending = false
			b.WriteRune(r)
			continue
		}
		pending = true
	}
	slug := b.String()
	if len(slug) <= MaxSlug {
		return slug
	}
	cut := slug[:MaxSlug]
	if i := strings.LastIndexByte(cut, '-'); i > 0 {
		return cut[:i]
	}
	return cut
}
