package com.example.money;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyTest {

    @ParameterizedTest(name = "{0} EUR equals {1} EUR")
    @CsvSource({
        "20, 20.00",
        "19.9, 19.90",
        "0, 0.00",
        "0, -0.0",
        "100, 1E+2",
        "-5.5, -5.500",
    })
    void sameAmountWithAnotherScaleIsEqual(String left, String right) {
        Money a = Money.of(left, "EUR");
        Money b = Money.of(right, "EUR");

        assertEquals(a, b);
        assertEquals(b, a);
        assertEquals(a.hashCode(), b.hashCode());
    }

    @Test
    void differentAmountsAreNotEqual() {
        assertNotEquals(Money.of("20.00", "EUR"), Money.of("20.01", "EUR"));
    }

    @Test
    void differentCurrenciesAreNotEqual() {
        assertNotEquals(Money.of("20.00", "EUR"), Money.of("20.00", "USD"));
    }

    @Test
    void sumsEqualTheConfiguredLimit() {
        Money sum = Money.of("10.50", "EUR").plus(Money.of("9.5", "EUR"));

        assertEquals(Money.of("20", "EUR"), sum);
    }

    @Test
    void worksAsAMapKey() {
        Map<Money, String> labels = new HashMap<>();
        labels.put(Money.of("9.99", "EUR"), "budget");

        assertEquals("budget", labels.get(Money.of("9.990", "EUR")));
    }

    @Test
    void priceListDropsDuplicatesOfAnotherScale() {
        PriceList list = new PriceList(List.of(
                Money.of("20.00", "EUR"),
                Money.of("20", "EUR"),
                Money.of("4.5", "EUR"),
                Money.of("4.50", "EUR"),
                Money.of("4.50", "USD")));

        assertEquals(3, list.distinctPrices().size());
        assertTrue(list.contains(Money.of("20.0", "EUR")));
    }

    @Test
    void setOfManyScalesHoldsOneValue() {
        Set<Money> set = new HashSet<>();
        for (int scale = 0; scale < 6; scale++) {
            set.add(Money.of(new BigDecimal("7").setScale(scale), "EUR"));
        }

        assertEquals(1, set.size());
    }

    @Test
    void printsTheAmountAsGiven() {
        assertEquals("19.90 EUR", Money.of("19.90", "EUR").toString());
        assertEquals("20 EUR", Money.of("20", "EUR").toString());
    }

    @Test
    void orderingStillComparesAmounts() {
        assertEquals(0, Money.of("1.0", "EUR").compareTo(Money.of("1.00", "EUR")));
        assertTrue(Money.of("1.01", "EUR").compareTo(Money.of("1", "EUR")) > 0);
        assertThrows(IllegalArgumentException.class,
                () -> Money.of("1", "EUR").compareTo(Money.of("1", "USD")));
    }
}
