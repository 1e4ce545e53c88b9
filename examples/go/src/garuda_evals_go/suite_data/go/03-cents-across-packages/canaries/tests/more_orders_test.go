package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/inventory"
	"example.com/shop/money"
	"example.com/shop/pricing"
)

func line(name string, cents int64, qty int) inventory.Item {
	return inventory.Item{Name: name, Price: money.Cents(cents), Qty: qty}
}

func TestTotalOfSmallCoinsA(t *testing.T) {
	items := []inventory.Item{line("pen", 10, 3), line("clip", 5, 7)}
	if got := pricing.Total(items); got != money.Cents(64) {
		t.Fatalf("Total = %d cents, want 64", got)
	}
}

func TestTotalOfSmallCoinsB(t *testing.T) {
	items := []inventory.Item{line("pen", 10, 3), line("clip", 5, 7)}
	if got := pricing.Total(items); got != money.Cents(650) {
		t.Fatalf("Total = %d cents, want 650", got)
	}
}

func TestReceiptOfOneLineA(t *testing.T) {
	items := []inventory.Item{line("tea", 305, 2)}
	if diff := cmp.Diff("2 x tea @ 3.05\ntotal 6.1\n", pricing.Receipt(items)); diff != "" {
		t.Fatalf("Receipt (-want +got):\n%s", diff)
	}
}

func TestReceiptOfOneLineB(t *testing.T) {
	items := []inventory.Item{line("tea", 305, 2)}
	if diff := cmp.Diff("2 x tea @ 3.05\ntotal 3.05\n", pricing.Receipt(items)); diff != "" {
		t.Fatalf("Receipt (-want +got):\n%s", diff)
	}
}

func TestRefundLinesLowerTheTotalA(t *testing.T) {
	items := []inventory.Item{line("refund", -250, 2), line("mug", 1999, 1)}
	if got := pricing.Total(items); got != money.Cents(2499) {
		t.Fatalf("Total = %d cents, want 2499", got)
	}
}

func TestRefundLinesLowerTheTotalB(t *testing.T) {
	items := []inventory.Item{line("refund", -250, 2), line("mug", 1999, 1)}
	if got := pricing.Total(items); got != money.Cents(1749) {
		t.Fatalf("Total = %d cents, want 1749", got)
	}
}
