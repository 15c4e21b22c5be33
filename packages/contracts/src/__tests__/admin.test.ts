import { describe, expect, it } from 'vitest';
import {
  alertSettingUpdateSchema,
  alertThresholdInputSchema,
  alertThresholdSchema,
  postFieldErrors,
  THRESHOLD_MESSAGE,
} from '../admin';

describe('alert thresholds (one schema for the form and the API)', () => {
  it('accepts whole numbers 1-100 only', () => {
    for (const ok of [1, 50, 85, 100]) expect(alertThresholdSchema.parse(ok)).toBe(ok);
    for (const bad of [0, 101, -5, 8.5, Number.NaN, '85', 'abc', null]) {
      const result = alertThresholdSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(THRESHOLD_MESSAGE);
    }
  });

  it('parses what a person typed', () => {
    expect(alertThresholdInputSchema.parse(' 85 ')).toBe(85);
    for (const bad of ['', 'abc', '0', '101', '8.5', '1e2', '-1']) expect(alertThresholdInputSchema.safeParse(bad).success).toBe(false);
  });

  it('refuses an empty or unknown setting update', () => {
    expect(alertSettingUpdateSchema.safeParse({}).success).toBe(false);
    expect(alertSettingUpdateSchema.safeParse({ enabled: true, colour: 'red' }).success).toBe(false);
    expect(alertSettingUpdateSchema.parse({ threshold: 70 })).toEqual({ threshold: 70 });
  });
});

describe('postFieldErrors', () => {
  it("puts the API's validation messages next to their fields", () => {
    expect(
      postFieldErrors([
        'Title must be at least 5 characters long',
        'Meta description must be at least 50 characters long',
        'keywords.3: Too big: expected string to have <=50 characters',
        'The body must be a JSON object',
      ]),
    ).toEqual({
      title: 'Title must be at least 5 characters long',
      metaDescription: 'Meta description must be at least 50 characters long',
      keywords: 'Too big: expected string to have <=50 characters',
      form: 'The body must be a JSON object',
    });
  });
});
