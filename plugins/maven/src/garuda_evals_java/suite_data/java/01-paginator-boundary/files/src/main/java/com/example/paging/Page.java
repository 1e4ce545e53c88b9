package com.example.paging;

import java.util.List;

/** One page of results. Pages are numbered from 1. */
public record Page<T>(int number, int totalPages, List<T> items) {

    public Page {
        items = List.copyOf(items);
    }

    public boolean hasNext() {
        return number < totalPages;
    }

    public boolean hasPrevious() {
        return number > 1;
    }
}
