package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/text"
)

func TestSlugOfAVersionedTitle(t *testing.T) {
	title := "Release v2.0 -- Notes & Fixes"
	if diff := cmp.Diff("release-v2-0-notes-fixes", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestAccentsSeparateWords(t *testing.T) {
	title := "Naïve Señor 3"
	if diff := cmp.Diff("na-ve-se-or-3", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestLongTitleIsCutBeforeAPartWord(t *testing.T) {
	title := "alpha beta gamma delta epsilon zeta eta"
	if diff := cmp.Diff("alpha-beta-gamma-delta-epsilon", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}
