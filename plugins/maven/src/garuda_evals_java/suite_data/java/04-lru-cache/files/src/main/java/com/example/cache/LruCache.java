package com.example.cache;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * A map with a fixed capacity that evicts the least recently used entry when it is full.
 * Keys and values must not be null.
 */
public final class LruCache<K, V> {

    /** A cache of {@code capacity} entries that tells no one about evictions. */
    public LruCache(int capacity) {
        this(capacity, (key, value) -> { });
    }

    /** A cache that calls {@code onEvict} with each entry it evicts to make room. */
    public LruCache(int capacity, BiConsumer<K, V> onEvict) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The value for {@code key}, or null; a hit makes the entry the most recently used. */
    public V get(K key) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Adds or replaces the value for {@code key}; the entry becomes the most recently used. */
    public void put(K key, V value) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Whether {@code key} is cached. Looking does not count as a use. */
    public boolean containsKey(K key) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** Removes {@code key} and returns its value, or null. */
    public V remove(K key) {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public int size() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    public int capacity() {
        throw new UnsupportedOperationException("not implemented yet");
    }

    /** The cached keys, from the least to the most recently used. */
    public List<K> keys() {
        throw new UnsupportedOperationException("not implemented yet");
    }
}
