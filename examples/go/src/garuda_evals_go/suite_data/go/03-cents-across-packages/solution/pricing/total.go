// Package pricing adds up orders.
package pricing

import (
	"fmt"
	"strings"

	"example.com/shop/inventory"
	"example.com/shop/money"
)

// Total is the price of every item times its quantity.
func Total(items []inventory.Item) money.Cents {
	var total money.Cents
	for _, item := range items {
		total += item.Price * money.Cents(item.Qty)
	}
	return total
}

// Receipt lists each item and the total, one per line.
func Receipt(items []inventory.Item) string {
	var b strings.Builder
	for _, item := range items {
		fmt.Fprintf(&b, "%d x %s @ %s\n", item.Qty, item.Name, item.Price)
	}
	fmt.Fprintf(&b, "total %s\n", Total(items))
	return b.String()
}
