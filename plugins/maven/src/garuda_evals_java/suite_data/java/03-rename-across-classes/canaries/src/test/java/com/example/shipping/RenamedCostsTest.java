package com.example.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RenamedCostsTest {

    @Test
    void everyStartedKilogramAndTheSurchargeAreAddedA() {
        ShippingCostCalculator calculator = new ShippingCostCalculator(Map.of("CH", 550));

        assertEquals(1499, calculator.costFor(new Parcel(4001, "CH")));
    }

    @Test
    void everyStartedKilogramAndTheSurchargeAreAddedB() {
        ShippingCostCalculator calculator = new ShippingCostCalculator(Map.of("CH", 550));

        assertEquals(1099, calculator.costFor(new Parcel(4001, "CH")));
    }

    @Test
    void checkoutAddsShippingJustBelowTheLimitA() {
        CheckoutService checkout = new CheckoutService(new ShippingCostCalculator(Map.of()));

        assertEquals(4999, checkout.totalCents(List.of(49_99), new Parcel(2001, "DE")));
    }

    @Test
    void checkoutAddsShippingJustBelowTheLimitB() {
        CheckoutService checkout = new CheckoutService(new ShippingCostCalculator(Map.of()));

        assertEquals(6098, checkout.totalCents(List.of(49_99), new Parcel(2001, "DE")));
    }

    @Test
    void quotesACountryWithASurchargeA() {
        QuoteFormatter formatter = new QuoteFormatter(new ShippingCostCalculator(Map.of("SE", 101)));

        assertEquals("Shipping to SE: 4.99 EUR", formatter.quote(new Parcel(1000, "SE")));
    }

    @Test
    void quotesACountryWithASurchargeB() {
        QuoteFormatter formatter = new QuoteFormatter(new ShippingCostCalculator(Map.of("SE", 101)));

        assertEquals("Shipping to SE: 7.50 EUR", formatter.quote(new Parcel(1000, "SE")));
    }
}
