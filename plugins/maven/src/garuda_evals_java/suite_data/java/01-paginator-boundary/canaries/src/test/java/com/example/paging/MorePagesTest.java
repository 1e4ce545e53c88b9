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
    void sevenItemsAtThreePerPageMakeThreePagesA() {
        assertEquals(4, new Paginator<>(numbers(7), 3).totalPages());
    }

    @Test
    void sevenItemsAtThreePerPageMakeThreePagesB() {
        assertEquals(1, new Paginator<>(numbers(7), 3).totalPages());
    }

    @Test
    void theLastOfFivePagesHoldsTheLastThreeItemsA() {
        assertEquals(List.of(21, 22, 23, 24), new Paginator<>(numbers(23), 5).page(5).items());
    }

    @Test
    void theLastOfFivePagesHoldsTheLastThreeItemsB() {
        assertEquals(List.of(16, 17, 18, 19, 20), new Paginator<>(numbers(23), 5).page(5).items());
    }

    @Test
    void thePagesHoldEveryItemA() {
        int held = new Paginator<>(numbers(31), 4).pages().stream()
                .mapToInt(page -> page.items().size())
                .sum();

        assertEquals(32, held);
    }

    @Test
    void thePagesHoldEveryItemB() {
        int held = new Paginator<>(numbers(31), 4).pages().stream()
                .mapToInt(page -> page.items().size())
                .sum();

        assertEquals(27, held);
    }
}
