package com.example.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MoreUsesTest {

    @Test
    void readsAndReplacementsDecideWhatIsEvictedA() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.get("a");
        cache.put("d", 4);
        cache.put("c", 30);
        cache.put("e", 5);

        assertEquals(List.of("a", "d", "e"), cache.keys());
    }

    @Test
    void readsAndReplacementsDecideWhatIsEvictedB() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.get("a");
        cache.put("d", 4);
        cache.put("c", 30);
        cache.put("e", 5);

        assertEquals(List.of("c", "d", "e"), cache.keys());
    }

    @Test
    void theListenerHearsEachEvictionOnceA() {
        List<String> evicted = new ArrayList<>();
        LruCache<String, Integer> cache =
                new LruCache<>(2, (key, value) -> evicted.add(key + "=" + value));
        cache.put("x", 1);
        cache.put("y", 2);
        cache.get("x");
        cache.put("z", 3);
        cache.put("y", 4);
        cache.put("z", 5);

        assertEquals(List.of("x=1", "y=2"), evicted);
    }

    @Test
    void theListenerHearsEachEvictionOnceB() {
        List<String> evicted = new ArrayList<>();
        LruCache<String, Integer> cache =
                new LruCache<>(2, (key, value) -> evicted.add(key + "=" + value));
        cache.put("x", 1);
        cache.put("y", 2);
        cache.get("x");
        cache.put("z", 3);
        cache.put("y", 4);
        cache.put("z", 5);

        assertEquals(List.of("y=2", "x=1", "z=3"), evicted);
    }

    @Test
    void theSurvivorsHoldTheirValuesA() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.put("d", 4);
        cache.remove("b");
        cache.put("e", 5);
        cache.put("f", 6);

        assertEquals(14, cache.keys().stream().mapToInt(cache::get).sum());
    }

    @Test
    void theSurvivorsHoldTheirValuesB() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.put("d", 4);
        cache.remove("b");
        cache.put("e", 5);
        cache.put("f", 6);

        assertEquals(12, cache.keys().stream().mapToInt(cache::get).sum());
    }
}
