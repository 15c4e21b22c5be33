import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateRoi, clampRoiInput, ROI_DEFAULTS, ROI_INPUT_KEYS, ROI_LIMITS, roiInputsFromQuery, roiInputsToQuery, toRoiNumber } from '../roi';

describe('calculateRoi', () => {
  it('gives the spec figures for the defaults', () => {
    const r = calculateRoi(ROI_DEFAULTS);
    expect(r.totalHoursPerWeek).toBe(51);
    expect(r.totalHoursPerMonth).toBeCloseTo(220.83, 6);
    expect(r.totalCostPerMonth).toBeCloseTo(5520.75, 6);
    expect(r.automationSavings).toBeCloseTo(3864.525, 6);
    expect(r.annualSavings).toBeCloseTo(46374.3, 6);
    expect(r.roiPercentage).toBeCloseTo(7.72905, 6);
    expect(r.paybackPeriod).toBeCloseTo(600000 / 46374.3, 6);
  });

  it('returns 0 ROI when revenue is 0 or less, and 0 payback when nothing is saved', () => {
    expect(calculateRoi({ ...ROI_DEFAULTS, monthlyRevenue: 0 }).roiPercentage).toBe(0);
    expect(calculateRoi({ ...ROI_DEFAULTS, monthlyRevenue: -5 }).roiPercentage).toBe(0);
    expect(calculateRoi({ ...ROI_DEFAULTS, automationEfficiency: 0 }).paybackPeriod).toBe(0);
    expect(calculateRoi({ ...ROI_DEFAULTS, costPerHour: 0 }).paybackPeriod).toBe(0);
  });

  it('counts non-numeric input as 0', () => {
    const r = calculateRoi({ ...ROI_DEFAULTS, customerService: 'abc' as unknown as number, costPerHour: Number.NaN });
    expect(r.totalHoursPerWeek).toBe(36);
    expect(r.totalCostPerMonth).toBe(0);
    expect(toRoiNumber('12.5')).toBe(12.5);
    expect(toRoiNumber('')).toBe(0);
    expect(toRoiNumber(undefined)).toBe(0);
  });

  const anyInput = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(Infinity, -Infinity, Number.NaN, 0, -0, Number.MAX_VALUE),
    fc.string(),
    fc.constant(undefined),
  );
  const anyInputs = fc.record(Object.fromEntries(ROI_INPUT_KEYS.map((k) => [k, anyInput])) as Record<(typeof ROI_INPUT_KEYS)[number], typeof anyInput>);

  it('property: every output is finite and non-negative for any inputs', () => {
    fc.assert(
      fc.property(anyInputs, (inputs) => {
        for (const value of Object.values(calculateRoi(inputs))) {
          expect(Number.isFinite(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: zero guards hold', () => {
    fc.assert(
      fc.property(anyInputs, fc.double({ max: 0, noNaN: true }), (inputs, revenue) => {
        expect(calculateRoi({ ...inputs, monthlyRevenue: revenue }).roiPercentage).toBe(0);
        expect(calculateRoi({ ...inputs, automationEfficiency: 0 }).paybackPeriod).toBe(0);
      }),
    );
  });

  it('property: savings never exceed cost for efficiency up to 100%, and annual is 12x monthly', () => {
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(ROI_INPUT_KEYS.map((k) => [k, fc.integer({ min: 0, max: 100_000 })])) as Record<(typeof ROI_INPUT_KEYS)[number], fc.Arbitrary<number>>),
        fc.integer({ min: 0, max: 100 }),
        (inputs, efficiency) => {
          const r = calculateRoi({ ...inputs, automationEfficiency: efficiency });
          // Relative slack: at billions of dollars one rounding step of a double is larger than any fixed epsilon.
          expect(r.automationSavings).toBeLessThanOrEqual(r.totalCostPerMonth * (1 + 1e-12) + 1e-9);
          expect(r.annualSavings).toBeCloseTo(r.automationSavings * 12, 6);
        },
      ),
    );
  });
});

describe('ROI query round trip', () => {
  it('restores the same inputs from the query it wrote', () => {
    const inputs = { ...ROI_DEFAULTS, customerService: 22, monthlyRevenue: 0, automationEfficiency: 85 };
    const query = roiInputsToQuery(inputs, 'utm_source=mail');
    expect(query.get('utm_source')).toBe('mail');
    expect(roiInputsFromQuery(query.toString())).toEqual(inputs);
  });

  it('returns null without ROI parameters, defaults missing ones, and zeroes garbage', () => {
    expect(roiInputsFromQuery('?utm_source=x')).toBeNull();
    expect(roiInputsFromQuery('?costPerHour=oops')).toEqual({ ...ROI_DEFAULTS, costPerHour: 0 });
  });
});

describe('ROI input limits', () => {
  it('caps each input at its limit and keeps smaller values', () => {
    expect(clampRoiInput('customerService', 400)).toBe(40);
    expect(clampRoiInput('costPerHour', '5000')).toBe(500);
    expect(clampRoiInput('monthlyRevenue', 1e12)).toBe(ROI_LIMITS.monthlyRevenue);
    expect(clampRoiInput('costPerHour', '42.5')).toBe(42.5);
    expect(clampRoiInput('staffCount', 'x')).toBe(0);
  });

  it('caps a shared link\'s values too', () => {
    expect(roiInputsFromQuery('?automationEfficiency=900')?.automationEfficiency).toBe(100);
  });
});
