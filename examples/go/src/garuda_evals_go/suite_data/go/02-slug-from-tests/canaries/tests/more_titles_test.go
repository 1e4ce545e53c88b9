package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/text"
)

func TestSlugOfAVersionedTitleA(t *testing.T) {
	title := "Release v2.0 -- Notes & Fixes"
	if diff := cmp.Diff("release-v2.0-notes-fixes", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestSlugOfAVersionedTitleB(t *testing.T) {
	title := "Release v2.0 -- Notes & Fixes"
	if diff := cmp.Diff("release-v20-notes-fixes", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestAccentsSeparateWordsA(t *testing.T) {
	title := "Naïve Señor 3"
	if diff := cmp.Diff("naive-senor-3", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestAccentsSeparateWordsB(t *testing.T) {
	title := "Naïve Señor 3"
	if diff := cmp.Diff("nave-seor-3", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestLongTitleIsCutBeforeAPartWordA(t *testing.T) {
	title := "alpha beta gamma delta epsilon zeta eta"
	if diff := cmp.Diff("alpha-beta-gamma-delta-epsilon-z", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}

func TestLongTitleIsCutBeforeAPartWordB(t *testing.T) {
	title := "alpha beta gamma delta epsilon zeta eta"
	if diff := cmp.Diff("alpha-beta-gamma-delta-epsilon-zeta", text.Slugify(title)); diff != "" {
		t.Fatalf("Slugify(%q) (-want +got):\n%s", title, diff)
	}
}
