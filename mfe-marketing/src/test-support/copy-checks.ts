// Checks of page copy that the data tests of several features share (test code only).
import { expect } from 'vitest';

/** Every string reachable in an object, for "no blank copy" and "no paragraph repeated" checks. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Copy long enough to be a sentence of its own (labels and button names may repeat by design). */
const paragraphs = (value: unknown) => strings(value).filter((s) => s.length >= 60);

/** A paragraph with the town name taken out: catches copy pasted with only the town swapped. */
const normalised = (text: string, town: string) => text.replaceAll(town, '{town}').toLowerCase();

/** Fails when a paragraph of one town's page appears (town name aside) on another town's page. */
export function expectNoParagraphSharedBetweenTowns(items: ReadonlyArray<{ town: string; copy: unknown }>) {
  const seen = new Map<string, string>();
  for (const { town, copy } of items) {
    for (const p of paragraphs(copy)) {
      const key = normalised(p, town);
      const other = seen.get(key);
      expect(other === undefined || other === town, `"${p}" appears for ${town} and ${other}`).toBe(true);
      seen.set(key, town);
    }
  }
  expect(seen.size).toBeGreaterThan(items.length * 10);
}
