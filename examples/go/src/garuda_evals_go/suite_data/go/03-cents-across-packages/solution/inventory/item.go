// Package inventory lists what a shop sells.
package inventory

import "example.com/shop/money"

// Item is one line of an order: a product, its unit price and how many.
type Item struct {
	Name  string
	Price money.Cents
	Qty   int
}
