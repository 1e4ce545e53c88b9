package com.example.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LruCacheTest {

    @Test
    void returnsWhatWasPut() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);

        assertEquals(1, cache.get("a"));
        assertNull(cache.get("missing"));
        assertEquals(1, cache.size());
        assertEquals(2, cache.capacity());
    }

    @Test
    void evictsTheLeastRecentlyUsedEntryWhenFull() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);

        assertFalse(cache.containsKey("a"));
        assertEquals(List.of("b", "c"), cache.keys());
        assertEquals(2, cache.size());
    }

    @Test
    void aReadCountsAsAUse() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.get("a");
        cache.put("c", 3);

        assertEquals(List.of("a", "c"), cache.keys());
        assertNull(cache.get("b"));
    }

    @Test
    void replacingAValueCountsAsAUseAndEvictsNothing() {
        List<String> evicted = new ArrayList<>();
        LruCache<String, Integer> cache = new LruCache<>(2, (key, value) -> evicted.add(key));
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("a", 10);

        assertEquals(List.of(), evicted);
        assertEquals(List.of("b", "a"), cache.keys());
        assertEquals(10, cache.get("a"));

        cache.put("c", 3);
        assertEquals(List.of("b"), evicted);
    }

    @Test
    void containsKeyDoesNotCountAsAUse() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        cache.put("b", 2);

        assertTrue(cache.containsKey("a"));
        cache.put("c", 3);

        assertFalse(cache.containsKey("a"));
        assertEquals(List.of("b", "c"), cache.keys());
    }

    @Test
    void aMissDoesNotChangeTheOrder() {
        LruCache<String, Integer> cache = new LruCache<>(3);
        cache.put("a", 1);
        cache.put("b", 2);

        cache.get("zzz");

        assertEquals(List.of("a", "b"), cache.keys());
    }

    @Test
    void tellsTheListenerEveryEvictedEntryInOrder() {
        List<String> evicted = new ArrayList<>();
        LruCache<String, Integer> cache =
                new LruCache<>(1, (key, value) -> evicted.add(key + "=" + value));
        cache.put("a", 1);
        cache.put("b", 2);
        cache.put("c", 3);

        assertEquals(List.of("a=1", "b=2"), evicted);
        assertEquals(List.of("c"), cache.keys());
    }

    @Test
    void removingIsNotAnEviction() {
        List<String> evicted = new ArrayList<>();
        LruCache<String, Integer> cache = new LruCache<>(2, (key, value) -> evicted.add(key));
        cache.put("a", 1);

        assertEquals(1, cache.remove("a"));
        assertNull(cache.remove("a"));
        assertEquals(0, cache.size());
        assertEquals(List.of(), evicted);
    }

    @Test
    void keysIsASnapshot() {
        LruCache<String, Integer> cache = new LruCache<>(2);
        cache.put("a", 1);
        List<String> keys = cache.keys();
        cache.put("b", 2);

        assertEquals(List.of("a"), keys);
        assertThrows(UnsupportedOperationException.class, () -> keys.add("x"));
    }

    @Test
    void rejectsACapacityBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> new LruCache<String, Integer>(0));
    }

    @Test
    void rejectsNullKeysAndValues() {
        LruCache<String, Integer> cache = new LruCache<>(2);

        assertThrows(NullPointerException.class, () -> cache.put(null, 1));
        assertThrows(NullPointerException.class, () -> cache.put("a", null));
    }
}
