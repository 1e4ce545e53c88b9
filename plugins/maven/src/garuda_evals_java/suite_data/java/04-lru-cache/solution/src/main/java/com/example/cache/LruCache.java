package com.example.cache;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * A map with a fixed capacity that evicts the least recently used entry when it is full.
 * Keys and values must not be null.
 */
public final class LruCache<K, V> {

    private final int capacity;
    private final BiConsumer<K, V> onEvict;
    private final LinkedHashMap<K, V> entries;

    /** A cache of {@code capacity} entries that tells no one about evictions. */
    public LruCache(int capacity) {
        this(capacity, (key, value) -> { });
    }

    /** A cache that calls {@code onEvict} with each entry it evicts to make room. */
    public LruCache(int capacity, BiConsumer<K, V> onEvict) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.onEvict = Objects.requireNonNull(onEvict, "onEvict");
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                if (size() <= LruCache.this.capacity) {
                    return false;
                }
                LruCache.this.onEvict.accept(eldest.getKey(), eldest.getValue());
                return true;
            }
        };
    }

    /** The value for {@code key}, or null; a hit makes the entry the most recently used. */
    public V get(K key) {
        return entries.get(Objects.requireNonNull(key, "key"));
    }

    /** Adds or replaces the value for {@code key}; the entry becomes the most recently used. */
    public void put(K key, V value) {
        entries.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /** Whether {@code key} is cached. Looking does not count as a use. */
    public boolean containsKey(K key) {
        return entries.containsKey(Objects.requireNonNull(key, "key"));
    }

    /** Removes {@code key} and returns its value, or null. */
    public V remove(K key) {
        return entries.remove(Objects.requireNonNull(key, "key"));
    }

    public int size() {
        return entries.size();
    }

    public int capacity() {
        return capacity;
    }

    /** The cached keys, from the least to the most recently used. */
    public List<K> keys() {
        return List.copyOf(entries.keySet());
    }
}
