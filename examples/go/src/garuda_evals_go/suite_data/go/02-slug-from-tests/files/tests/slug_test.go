package tests

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/text"
)

func TestSlugify(t *testing.T) {
	cases := []struct{ name, title, want string }{
		{"lower case words", "Hello World", "hello-world"},
		{"punctuation runs", "Go: fast, simple & fun!", "go-fast-simple-fun"},
		{"digits kept", "Top 10 Tips for 2026", "top-10-tips-for-2026"},
		{"no hyphen at the ends", "  --Trim me--  ", "trim-me"},
		{"non ascii separates", "Café Crème", "caf-cr-me"},
		{"empty", "", ""},
		{"only symbols", "!!!", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, text.Slugify(c.title)); diff != "" {
				t.Errorf("Slugify(%q) (-want +got):\n%s", c.title, diff)
			}
		})
	}
}

func TestLongTitlesAreCutAtAHyphen(t *testing.T) {
	title := "The quick brown fox jumps over the lazy dog again and again"
	got := text.Slugify(title)
	if got != "the-quick-brown-fox-jumps-over" {
		t.Fatalf("Slugify(%q) = %q", title, got)
	}
	if len(got) > text.MaxSlug || strings.HasSuffix(got, "-") {
		t.Fatalf("slug %q is too long or ends with a hyphen", got)
	}
}

func TestAWordLongerThanTheLimitIsCut(t *testing.T) {
	got := text.Slugify(strings.Repeat("a", 40))
	if got != strings.Repeat("a", text.MaxSlug) {
		t.Fatalf("got %q", got)
	}
}
