// Package text turns titles into URL parts.
package text

// MaxSlug is the longest slug Slugify returns.
const MaxSlug = 32

// Slugify turns a title into the part of a URL that names it.
func Slugify(title string) string {
	return ""
}
