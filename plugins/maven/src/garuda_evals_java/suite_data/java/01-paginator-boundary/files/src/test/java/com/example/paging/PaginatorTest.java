package com.example.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PaginatorTest {

    private static List<Integer> numbers(int count) {
        return IntStream.rangeClosed(1, count).boxed().toList();
    }

    @ParameterizedTest(name = "{0} items at {1} per page make {2} pages")
    @CsvSource({
        "95, 10, 10",
        "100, 10, 10",
        "101, 10, 11",
        "1, 10, 1",
        "3, 1, 3",
        "0, 10, 0",
    })
    void countsEveryPage(int items, int pageSize, int expectedPages) {
        assertEquals(expectedPages, new Paginator<>(numbers(items), pageSize).totalPages());
    }

    @Test
    void lastPageHoldsTheRemainder() {
        Page<Integer> last = new Paginator<>(numbers(95), 10).page(10);

        assertEquals(List.of(91, 92, 93, 94, 95), last.items());
        assertEquals(10, last.totalPages());
        assertFalse(last.hasNext());
        assertTrue(last.hasPrevious());
    }

    @Test
    void fullLastPageIsNotFollowedByAnEmptyOne() {
        Paginator<Integer> paginator = new Paginator<>(numbers(20), 10);

        assertEquals(List.of(11, 12, 13, 14, 15, 16, 17, 18, 19, 20), paginator.page(2).items());
        assertThrows(IllegalArgumentException.class, () -> paginator.page(3));
    }

    @Test
    void pagesTogetherHoldEveryItemOnce() {
        List<Integer> items = numbers(47);

        List<Integer> joined = new Paginator<>(items, 6).pages().stream()
                .flatMap(page -> page.items().stream())
                .toList();

        assertEquals(items, joined);
    }

    @Test
    void pageSizeLargerThanTheListGivesOnePage() {
        Paginator<Integer> paginator = new Paginator<>(numbers(5), Integer.MAX_VALUE);

        assertEquals(1, paginator.totalPages());
        assertEquals(numbers(5), paginator.page(1).items());
    }

    @Test
    void emptyListHasNoPages() {
        Paginator<Integer> paginator = new Paginator<>(List.of(), 10);

        assertEquals(List.of(), paginator.pages());
        assertThrows(IllegalArgumentException.class, () -> paginator.page(1));
    }

    @Test
    void rejectsPagesOutsideTheRange() {
        Paginator<Integer> paginator = new Paginator<>(numbers(95), 10);

        assertThrows(IllegalArgumentException.class, () -> paginator.page(0));
        assertThrows(IllegalArgumentException.class, () -> paginator.page(11));
    }

    @Test
    void rejectsAPageSizeBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> new Paginator<>(numbers(3), 0));
    }

    @Test
    void firstPageIsUnchanged() {
        Page<Integer> first = new Paginator<>(numbers(95), 10).page(1);

        assertEquals(numbers(10), first.items());
        assertTrue(first.hasNext());
        assertFalse(first.hasPrevious());
    }
}
