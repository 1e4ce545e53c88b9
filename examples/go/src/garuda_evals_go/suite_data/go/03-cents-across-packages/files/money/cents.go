// Package money holds amounts of money as whole cents.
package money

import "fmt"

// Cents is an amount of money in hundredths of the currency unit.
type Cents int64

// String formats c with two decimals: 1999 is "19.99".
func (c Cents) String() string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}
