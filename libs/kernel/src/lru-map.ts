/**
 * A Map of at most `max` entries that forgets the least recently used first
 * (a Map keeps insertion order, so re-inserting an entry on use makes its
 * first key the least recent). For per-process memories of immutable or
 * self-checking facts; never for anything that must not be lost.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) this.set(key, value);
    return value;
  }

  /** The value, now the most recently used; computed and kept when missing (nothing is kept when `compute` throws). */
  getOrSet(key: K, compute: (key: K) => V): V {
    let value = this.get(key);
    if (value === undefined) {
      value = compute(key);
      this.set(key, value);
    }
    return value;
  }

  /** The value, without counting as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
