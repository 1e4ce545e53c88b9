package com.example.sales;

import java.math.BigDecimal;

/** One order line: a quantity of one product at a unit price, sold in a region. */
public record Order(
        String id, String region, String product, int quantity, BigDecimal unitPrice, Status status) {

    public BigDecimal revenue() {
        return unitPrice.multiply(BigDecimal.valueOf(quantity));
    }

    public boolean counts() {
        return status != Status.CANCELLED;
    }
}
