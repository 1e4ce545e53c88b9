package com.example.sales;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SalesReportTest {

    private static Order order(String id, String region, String product, int quantity,
            String unitPrice, Status status) {
        return new Order(id, region, product, quantity, new BigDecimal(unitPrice), status);
    }

    private static final List<Order> WEEK = List.of(
            order("o1", "North", "kettle", 2, "24.50", Status.PAID),
            order("o2", "South", "toaster", 1, "39.90", Status.SHIPPED),
            order("o3", "North", "toaster", 3, "39.90", Status.PAID),
            order("o4", "West", "kettle", 1, "24.50", Status.PAID),
            order("o5", "South", "mug", 10, "4.00", Status.PAID),
            order("o6", "West", "blender", 5, "89.00", Status.CANCELLED),
            order("o7", "East", "mug", 2, "4.00", Status.SHIPPED),
            order("o8", "South", "kettle", 1, "24.50", Status.CANCELLED));

    private final SalesReport report = new SalesReport(WEEK);

    @Test
    void regionsStartWithTheBiggestRevenue() {
        Map<String, BigDecimal> revenue = report.revenueByRegion();

        assertEquals(List.of("North", "South", "West", "East"), List.copyOf(revenue.keySet()));
        assertEquals(new BigDecimal("168.70"), revenue.get("North"));
        assertEquals(new BigDecimal("79.90"), revenue.get("South"));
    }

    @Test
    void regionsWithEqualRevenueGoByName() {
        SalesReport tied = new SalesReport(List.of(
                order("a", "Zeta", "mug", 1, "4.00", Status.PAID),
                order("b", "Alpha", "mug", 1, "4.00", Status.PAID),
                order("c", "Mid", "kettle", 1, "24.50", Status.PAID)));

        assertEquals(List.of("Mid", "Alpha", "Zeta"), List.copyOf(tied.revenueByRegion().keySet()));
    }

    @Test
    void productsOrderedTwiceAreAddedUp() {
        assertEquals(List.of("mug (12)", "toaster (4)", "kettle (3)"), report.topProducts(5));
    }

    @Test
    void topProductsStopsAtTheLimit() {
        assertEquals(List.of("mug (12)", "toaster (4)"), report.topProducts(2));
    }

    @Test
    void cancelledOrdersAreLeftOut() {
        SalesReport cancelledOnly = new SalesReport(List.of(
                order("x", "West", "blender", 5, "89.00", Status.CANCELLED)));

        assertEquals(Map.of(), cancelledOnly.revenueByRegion());
        assertEquals(List.of(), cancelledOnly.topProducts(3));
    }

    @Test
    void rendersTheWholeReport() {
        String expected = """
                Revenue by region
                  North: 168.70
                  South: 79.90
                  West: 24.50
                  East: 8.00
                Top products
                  mug (12)
                  toaster (4)
                """;

        assertEquals(expected, report.render(2));
    }
}
