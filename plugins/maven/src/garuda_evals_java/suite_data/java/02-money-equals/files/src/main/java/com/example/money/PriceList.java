package com.example.money;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The distinct prices of a catalogue, in the order they first appear. */
public final class PriceList {

    private final Set<Money> prices = new LinkedHashSet<>();

    public PriceList(Collection<Money> prices) {
        this.prices.addAll(prices);
    }

    public List<Money> distinctPrices() {
        return List.copyOf(prices);
    }

    public boolean contains(Money price) {
        return prices.contains(price);
    }
}
