/**
 * A Map of at most `capacity` entries: `get` marks an entry as recently used, `set` drops the least recently
 * used entries beyond the capacity.
 */
export interface LruMap<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): void
}

export function createLruMap<K, V>(capacity: number): LruMap<K, V> {
  const entries = new Map<K, V>()
  return {
    get(key) {
      if (!entries.has(key)) return undefined
      const value = entries.get(key) as V
      entries.delete(key)
      entries.set(key, value)
      return value
    },
    set(key, value) {
      entries.delete(key)
      entries.set(key, value)
      while (entries.size > capacity) {
        const oldest = entries.keys().next()
        if (oldest.done) break
        entries.delete(oldest.value)
      }
    },
    delete(key) {
      entries.delete(key)
    },
  }
}
