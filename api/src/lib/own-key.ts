/**
 * `table[key]` for a key that came from outside (a request, a fetched page): only the table's own entries, never
 * `constructor`, `__proto__` or `toString` from Object.prototype.
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
