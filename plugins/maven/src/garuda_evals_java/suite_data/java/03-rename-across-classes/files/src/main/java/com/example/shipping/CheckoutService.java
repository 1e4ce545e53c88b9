package com.example.shipping;

import java.util.List;

/** Totals an order: the items, plus shipping unless the items reach the free-shipping limit. */
public class CheckoutService {

    static final int FREE_SHIPPING_FROM_CENTS = 50_00;

    private final ShippingCalc shippingCalc;

    public CheckoutService(ShippingCalc shippingCalc) {
        this.shippingCalc = shippingCalc;
    }

    public int totalCents(List<Integer> itemPricesCents, Parcel parcel) {
        int items = itemPricesCents.stream().mapToInt(Integer::intValue).sum();
        int shipping = items >= FREE_SHIPPING_FROM_CENTS ? 0 : shippingCalc.calc(parcel);
        return items + shipping;
    }
}
