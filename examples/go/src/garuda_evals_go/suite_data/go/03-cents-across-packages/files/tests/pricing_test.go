package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/inventory"
	"example.com/shop/money"
	"example.com/shop/pricing"
)

func order() []inventory.Item {
	return []inventory.Item{
		{Name: "mug", Price: money.Cents(1999), Qty: 3},
		{Name: "card", Price: money.Cents(250), Qty: 1},
	}
}

func TestTotalIsExactInCents(t *testing.T) {
	if got := pricing.Total(order()); got != money.Cents(6247) {
		t.Fatalf("Total = %d cents, want 6247", got)
	}
}

func TestEmptyOrderCostsNothing(t *testing.T) {
	if got := pricing.Total(nil); got != 0 {
		t.Fatalf("Total(nil) = %v", got)
	}
}

func TestReceiptIsUnchanged(t *testing.T) {
	want := "3 x mug @ 19.99\n1 x card @ 2.50\ntotal 62.47\n"
	if diff := cmp.Diff(want, pricing.Receipt(order())); diff != "" {
		t.Fatalf("Receipt (-want +got):\n%s", diff)
	}
}

func TestCentsFormatWithTwoDecimals(t *testing.T) {
	for cents, want := range map[money.Cents]string{5: "0.05", 1999: "19.99", -250: "-2.50"} {
		if got := cents.String(); got != want {
			t.Errorf("Cents(%d).String() = %q, want %q", cents, got, want)
		}
	}
}
