package com.example.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShippingCostCalculatorTest {

    private final ShippingCostCalculator calculator =
            new ShippingCostCalculator(Map.of("NO", 700, "CH", 550));

    @ParameterizedTest(name = "{0} g to {1} costs {2} cents")
    @CsvSource({
        "1, DE, 499",
        "1000, DE, 499",
        "1001, DE, 649",
        "2500, DE, 799",
        "1000, NO, 1199",
        "3000, CH, 1349",
    })
    void costsFollowWeightAndCountry(int grams, String country, int cents) {
        assertEquals(cents, calculator.costFor(new Parcel(grams, country)));
    }

    @Test
    void oldClassNameIsGone() {
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("com.example.shipping.ShippingCalc"));
    }

    @Test
    void oldMethodNameIsGone() {
        assertTrue(Arrays.stream(ShippingCostCalculator.class.getMethods())
                .map(Method::getName)
                .noneMatch("calc"::equals));
    }
}
