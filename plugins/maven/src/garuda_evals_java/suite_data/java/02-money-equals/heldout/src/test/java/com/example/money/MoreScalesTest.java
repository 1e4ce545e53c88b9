package com.example.money;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MoreScalesTest {

    @Test
    void aHashSetKeepsOneValuePerAmountAndCurrency() {
        HashSet<Money> set = new HashSet<>(List.of(
                Money.of("3.10", "USD"),
                Money.of("3.1", "USD"),
                Money.of("3.100", "USD"),
                Money.of("3.1", "EUR")));

        assertEquals(2, set.size());
    }

    @Test
    void countsMergeUnderAnAmountOfAnotherScale() {
        Map<Money, Integer> counts = new HashMap<>();
        for (String amount : List.of("5", "5.0", "6", "5.00")) {
            counts.merge(Money.of(amount, "EUR"), 1, Integer::sum);
        }

        assertEquals(3, counts.get(Money.of("5.000", "EUR")));
    }

    @Test
    void distinctPricesFindAnAmountOfAnotherScale() {
        PriceList list = new PriceList(List.of(
                Money.of("12.50", "EUR"),
                Money.of("12.5", "EUR"),
                Money.of("7", "EUR"),
                Money.of("7.00", "EUR"),
                Money.of("12.500", "EUR")));

        assertEquals(1, list.distinctPrices().indexOf(Money.of("7.0", "EUR")));
    }
}
