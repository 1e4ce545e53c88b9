package com.example.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckoutServiceTest {

    private final CheckoutService checkout =
            new CheckoutService(new ShippingCostCalculator(Map.of("NO", 700)));

    @Test
    void addsShippingBelowTheFreeShippingLimit() {
        assertEquals(12_00 + 8_50 + 649,
                checkout.totalCents(List.of(12_00, 8_50), new Parcel(1500, "DE")));
    }

    @Test
    void shipsForFreeFromTheLimit() {
        assertEquals(50_00, checkout.totalCents(List.of(30_00, 20_00), new Parcel(4000, "NO")));
    }
}
