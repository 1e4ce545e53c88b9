// Package inventory lists what a shop sells.
package inventory

// Item is one line of an order: a product, its unit price and how many.
type Item struct {
	Name  string
	Price float64
	Qty   int
}
