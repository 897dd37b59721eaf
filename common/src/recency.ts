// A Map whose entries are set again (deleted, then set) each time they are used keeps them in the
// order they were last used: its first keys are those used least lately, which a cache forgets first.

/** Deletes `map`'s first keys (those set least lately) until it holds at most `max` entries. */
export function forgetOldest<K, V>(map: Map<K, V>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return;
    map.delete(key);
  }
}
