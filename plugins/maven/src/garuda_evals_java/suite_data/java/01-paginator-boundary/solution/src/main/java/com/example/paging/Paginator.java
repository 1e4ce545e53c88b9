package com.example.paging;

import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/** Splits a list of results into pages of a fixed size. Pages are numbered from 1. */
public final class Paginator<T> {

    private final List<T> items;
    private final int pageSize;

    public Paginator(List<T> items, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
        }
        this.items = List.copyOf(Objects.requireNonNull(items, "items"));
        this.pageSize = pageSize;
    }

    /** How many pages there are; an empty list has none. */
    public int totalPages() {
        int full = items.size() / pageSize;
        return items.size() % pageSize == 0 ? full : full + 1;
    }

    /** The page with the given number, counted from 1. */
    public Page<T> page(int number) {
        int total = totalPages();
        if (number < 1 || number > total) {
            throw new IllegalArgumentException("no page " + number + ", there are " + total);
        }
        int from = (number - 1) * pageSize;
        int to = from + Math.min(pageSize, items.size() - from);
        return new Page<>(number, total, items.subList(from, to));
    }

    /** Every page, in order. */
    public List<Page<T>> pages() {
        return IntStream.rangeClosed(1, totalPages()).mapToObj(this::page).toList();
    }
}
