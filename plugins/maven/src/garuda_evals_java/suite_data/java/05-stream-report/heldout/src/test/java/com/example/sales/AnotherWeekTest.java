package com.example.sales;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnotherWeekTest {

    private static Order order(String id, String region, String product, int quantity,
            String unitPrice, Status status) {
        return new Order(id, region, product, quantity, new BigDecimal(unitPrice), status);
    }

    @Test
    void regionsOfDifferentRevenueStartWithTheBiggest() {
        SalesReport report = new SalesReport(List.of(
                order("a", "Aster", "mug", 5, "2.00", Status.PAID),
                order("b", "Birch", "kettle", 1, "30.00", Status.SHIPPED),
                order("c", "Cedar", "mug", 10, "2.00", Status.PAID)));

        assertEquals(List.of("Birch", "Cedar", "Aster"), List.copyOf(report.revenueByRegion().keySet()));
    }

    @Test
    void aProductOrderedThreeTimesIsAddedUp() {
        SalesReport report = new SalesReport(List.of(
                order("t1", "North", "tea", 2, "3.00", Status.PAID),
                order("t2", "South", "tea", 3, "3.00", Status.SHIPPED),
                order("t3", "North", "tea", 4, "3.00", Status.CANCELLED),
                order("c1", "North", "cup", 4, "6.00", Status.PAID),
                order("p1", "South", "pot", 1, "20.00", Status.PAID)));

        assertEquals(List.of("tea (5)", "cup (4)", "pot (1)"), report.topProducts(3));
    }

    @Test
    void rendersAWeekWithARepeatedProduct() {
        SalesReport report = new SalesReport(List.of(
                order("l1", "North", "lamp", 2, "15.00", Status.PAID),
                order("l2", "South", "lamp", 1, "15.00", Status.PAID),
                order("d1", "South", "desk", 1, "120.00", Status.SHIPPED),
                order("c1", "North", "chair", 3, "45.00", Status.CANCELLED)));
        String expected = """
                Revenue by region
                  South: 135.00
                  North: 30.00
                Top products
                  lamp (3)
                """;

        assertEquals(expected, report.render(1));
    }
}
