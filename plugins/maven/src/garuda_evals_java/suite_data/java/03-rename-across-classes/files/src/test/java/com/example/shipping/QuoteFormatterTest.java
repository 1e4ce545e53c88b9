package com.example.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class QuoteFormatterTest {

    @Test
    void formatsTheCostInEuros() {
        QuoteFormatter formatter = new QuoteFormatter(new ShippingCostCalculator(Map.of("NO", 700)));

        assertEquals("Shipping to NO: 11.99 EUR", formatter.quote(new Parcel(800, "NO")));
        assertEquals("Shipping to DE: 6.49 EUR", formatter.quote(new Parcel(2000, "DE")));
    }
}
