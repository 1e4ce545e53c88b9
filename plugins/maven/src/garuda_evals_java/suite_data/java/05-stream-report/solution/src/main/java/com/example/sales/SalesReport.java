package com.example.sales;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The weekly sales report: revenue per region and the best-selling products. */
public final class SalesReport {

    private final List<Order> orders;

    public SalesReport(List<Order> orders) {
        this.orders = List.copyOf(orders);
    }

    /** Revenue per region, the biggest first; regions with equal revenue by name. */
    public Map<String, BigDecimal> revenueByRegion() {
        Map<String, BigDecimal> totals = orders.stream()
                .filter(Order::counts)
                .collect(Collectors.groupingBy(
                        Order::region, Collectors.reducing(BigDecimal.ZERO, Order::revenue, BigDecimal::add)));
        return totals.entrySet().stream()
                .sorted(Map.Entry.<String, BigDecimal>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .collect(Collectors.toMap(
                        Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }

    /** The {@code limit} products with the most units sold, most first; ties by name. */
    public List<String> topProducts(int limit) {
        Map<String, Integer> units = orders.stream()
                .filter(Order::counts)
                .collect(Collectors.groupingBy(Order::product, Collectors.summingInt(Order::quantity)));
        return units.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(limit)
                .map(entry -> entry.getKey() + " (" + entry.getValue() + ")")
                .toList();
    }

    /** The report as text. */
    public String render(int topProducts) {
        StringBuilder text = new StringBuilder("Revenue by region\n");
        revenueByRegion().forEach((region, revenue) ->
                text.append("  ").append(region).append(": ").append(revenue.toPlainString()).append('\n'));
        text.append("Top products\n");
        topProducts(topProducts).forEach(line -> text.append("  ").append(line).append('\n'));
        return text.toString();
    }
}
