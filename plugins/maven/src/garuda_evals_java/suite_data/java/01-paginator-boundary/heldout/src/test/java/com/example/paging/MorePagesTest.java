package com.example.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MorePagesTest {

    private static List<Integer> numbers(int count) {
        return IntStream.rangeClosed(1, count).boxed().toList();
    }

    @Test
    void sevenItemsAtThreePerPageMakeThreePages() {
        assertEquals(3, new Paginator<>(numbers(7), 3).totalPages());
    }

    @Test
    void theLastOfFivePagesHoldsTheLastThreeItems() {
        assertEquals(List.of(21, 22, 23), new Paginator<>(numbers(23), 5).page(5).items());
    }

    @Test
    void thePagesHoldEveryItem() {
        int held = new Paginator<>(numbers(31), 4).pages().stream()
                .mapToInt(page -> page.items().size())
                .sum();

        assertEquals(31, held);
    }
}
