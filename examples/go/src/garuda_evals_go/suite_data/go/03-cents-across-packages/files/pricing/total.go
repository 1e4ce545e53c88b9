// Package pricing adds up orders.
package pricing

import (
	"fmt"
	"strings"

	"example.com/shop/inventory"
)

// Total is the price of every item times its quantity.
func Total(items []inventory.Item) float64 {
	total := 0.0
	for _, item := range items {
		total += item.Price * float64(item.Qty)
	}
	return total
}

// Receipt lists each item and the total, one per line.
func Receipt(items []inventory.Item) string {
	var b strings.Builder
	for _, item := range items {
		fmt.Fprintf(&b, "%d x %s @ %.2f\n", item.Qty, item.Name, item.Price)
	}
	fmt.Fprintf(&b, "total %.2f\n", Total(items))
	return b.String()
}
