package com.example.shipping;

import java.util.Objects;

/** A parcel to ship: its weight in grams and the ISO code of the destination country. */
public record Parcel(int weightGrams, String country) {

    public Parcel {
        if (weightGrams <= 0) {
            throw new IllegalArgumentException("weight must be positive, was " + weightGrams);
        }
        Objects.requireNonNull(country, "country");
    }
}
