package com.example.sales;

/** Where an order stands. Cancelled orders earn nothing and sell nothing. */
public enum Status {
    PAID,
    SHIPPED,
    CANCELLED
}
