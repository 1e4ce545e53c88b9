package com.example.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MoreUsesTest {

    @Test
    void readsAndReplacementsDecideWhatIsEvicted() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.get("a");
        cache.put("d", 4);
        cache.put("c", 30);
        cache.put("e", 5);

        assertEquals(List.of("d", "c", "e"), cache.keys());
    }

    @Test
    void theListenerHearsEachEvictionOnce() {
        List<String> evicted = new ArrayList<>();
        LruCache<String, Integer> cache =
                new LruCache<>(2, (key, value) -> evicted.add(key + "=" + value));
        cache.put("x", 1);
        cache.put("y", 2);
        cache.get("x");
        cache.put("z", 3);
        cache.put("y", 4);
        cache.put("z", 5);

        assertEquals(List.of("y=2", "x=1"), evicted);
    }

    @Test
    void theSurvivorsHoldTheirValues() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);
        cache.put("d", 4);
        cache.remove("b");
        cache.put("e", 5);
        cache.put("f", 6);

        assertEquals(15, cache.keys().stream().mapToInt(cache::get).sum());
    }
}
