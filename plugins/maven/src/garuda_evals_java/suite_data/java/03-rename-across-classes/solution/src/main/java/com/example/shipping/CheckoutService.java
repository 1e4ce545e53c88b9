package com.example.shipping;

import java.util.List;

/** Totals an order: the items, plus shipping unless the items reach the free-shipping limit. */
public class CheckoutService {

    static final int FREE_SHIPPING_FROM_CENTS = 50_00;

    private final ShippingCostCalculator shippingCostCalculator;

    public CheckoutService(ShippingCostCalculator shippingCostCalculator) {
        this.shippingCostCalculator = shippingCostCalculator;
    }

    public int totalCents(List<Integer> itemPricesCents, Parcel parcel) {
        int items = itemPricesCents.stream().mapToInt(Integer::intValue).sum();
        int shipping = items >= FREE_SHIPPING_FROM_CENTS ? 0 : shippingCostCalculator.costFor(parcel);
        return items + shipping;
    }
}
