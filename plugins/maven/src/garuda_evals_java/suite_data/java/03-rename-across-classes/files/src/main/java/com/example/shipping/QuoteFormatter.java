package com.example.shipping;

import java.util.Locale;

/** Formats a shipping quote for the checkout page. */
public class QuoteFormatter {

    private final ShippingCalc calc;

    public QuoteFormatter(ShippingCalc calc) {
        this.calc = calc;
    }

    public String quote(Parcel parcel) {
        int cents = calc.calc(parcel);
        return String.format(Locale.ROOT, "Shipping to %s: %d.%02d EUR", parcel.country(),
                cents / 100, cents % 100);
    }
}
