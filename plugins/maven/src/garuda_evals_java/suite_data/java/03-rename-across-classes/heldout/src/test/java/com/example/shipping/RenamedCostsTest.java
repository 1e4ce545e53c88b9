package com.example.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RenamedCostsTest {

    @Test
    void everyStartedKilogramAndTheSurchargeAreAdded() {
        ShippingCostCalculator calculator = new ShippingCostCalculator(Map.of("CH", 550));

        assertEquals(1649, calculator.costFor(new Parcel(4001, "CH")));
    }

    @Test
    void checkoutAddsShippingJustBelowTheLimit() {
        CheckoutService checkout = new CheckoutService(new ShippingCostCalculator(Map.of()));

        assertEquals(5798, checkout.totalCents(List.of(49_99), new Parcel(2001, "DE")));
    }

    @Test
    void quotesACountryWithASurcharge() {
        QuoteFormatter formatter = new QuoteFormatter(new ShippingCostCalculator(Map.of("SE", 101)));

        assertEquals("Shipping to SE: 6.00 EUR", formatter.quote(new Parcel(1000, "SE")));
    }
}
