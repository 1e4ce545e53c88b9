package com.example.shipping;

import java.util.Map;

/** Computes what shipping a parcel costs, in cents. */
public class ShippingCostCalculator {

    static final int BASE_CENTS = 499;
    static final int PER_EXTRA_KG_CENTS = 150;

    private final Map<String, Integer> surchargeCentsByCountry;

    public ShippingCostCalculator(Map<String, Integer> surchargeCentsByCountry) {
        this.surchargeCentsByCountry = Map.copyOf(surchargeCentsByCountry);
    }

    /** The base price covers the first kilogram; every started kilogram above it costs extra. */
    public int costFor(Parcel parcel) {
        int extraKilograms = Math.max(0, (parcel.weightGrams() - 1) / 1000);
        int surcharge = surchargeCentsByCountry.getOrDefault(parcel.country(), 0);
        return BASE_CENTS + extraKilograms * PER_EXTRA_KG_CENTS + surcharge;
    }
}
