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

func TestTotalOfSmallCoins(t *testing.T) {
	items := []inventory.Item{line("pen", 10, 3), line("clip", 5, 7)}
	if got := pricing.Total(items); got != money.Cents(65) {
		t.Fatalf("Total = %d cents, want 65", got)
	}
}

func TestReceiptOfOneLine(t *testing.T) {
	items := []inventory.Item{line("tea", 305, 2)}
	if diff := cmp.Diff("2 x tea @ 3.05\ntotal 6.10\n", pricing.Receipt(items)); diff != "" {
		t.Fatalf("Receipt (-want +got):\n%s", diff)
	}
}

func TestRefundLinesLowerTheTotal(t *testing.T) {
	items := []inventory.Item{line("refund", -250, 2), line("mug", 1999, 1)}
	if got := pricing.Total(items); got != money.Cents(1499) {
		t.Fatalf("Total = %d cents, want 1499", got)
	}
}
