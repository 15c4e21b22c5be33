import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FACTOR_KEYS, MIN_MEASURED_FACTORS, NOT_ENOUGH_DATA_LABEL, NOT_MEASURED_LABEL, SAMPLE_SCORE_LABEL, scoreColor, scoreLabel } from '@site/contracts/analysis';
import { FACTOR_POINTS, percentile, scoreAll, scoreSignals, SIGNALS, type Signal, type SignalKey } from '../scoring';

const keys = Object.keys(SIGNALS) as SignalKey[];

const signalArb: fc.Arbitrary<Signal> = fc
  .record({
    key: fc.constantFrom(...keys),
    status: fc.constantFrom('verified' as const, 'simulated' as const, 'unverified' as const),
    fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ key, status, fraction }) => ({
    key,
    factor: SIGNALS[key].factor,
    label: SIGNALS[key].label,
    maxPoints: SIGNALS[key].points,
    status,
    fraction: status === 'unverified' ? 0 : fraction,
    insight: '',
  }));

/** The signals of one report: each key at most once, as the engine measures each signal once. */
const reportSignals = (options: { minLength?: number; maxLength: number }) => fc.uniqueArray(signalArb, { selector: (s) => s.key, ...options });

describe('scoring model', () => {
  it('has 100 points in all, split over the six factors', () => {
    expect(Object.values(SIGNALS).reduce((n, s) => n + s.points, 0)).toBe(100);
    expect(FACTOR_KEYS.reduce((n, f) => n + FACTOR_POINTS[f], 0)).toBe(100);
  });

  it('scores stay within 0-100 and labels and colours follow the 80/60/40 thresholds', () => {
    fc.assert(
      fc.property(reportSignals({ maxLength: 40 }), (signals) => {
        const all = scoreAll(signals);
        for (const [key, r] of Object.entries(all)) {
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          expect(Number.isInteger(r.score)).toBe(true);
          if (r.verified && r.sample) {
            expect(r.label).toBe(SAMPLE_SCORE_LABEL);
          } else if (r.verified) {
            expect(r.label).toBe(scoreLabel(r.score));
            expect(r.color).toBe(scoreColor(r.score));
          } else {
            expect(r).toMatchObject({ score: 0, label: key === 'overall' ? NOT_ENOUGH_DATA_LABEL : NOT_MEASURED_LABEL });
          }
          expect(r.dataPoints).toBeLessThanOrEqual(r.totalPossiblePoints || 100);
        }
        // The overall score is graded only on at least half of the factors, and says on how many.
        const measured = FACTOR_KEYS.filter((f) => all[f].verified).length;
        expect(all.overall.factorsMeasured).toBe(measured);
        expect(all.overall.verified).toBe(measured >= MIN_MEASURED_FACTORS);
      }),
    );
  });

  it('adding a verified positive signal never lowers its factor (or the overall score)', () => {
    fc.assert(
      fc.property(reportSignals({ maxLength: 30 }), fc.constantFrom(...keys), (measured, key) => {
        const spec = SIGNALS[key];
        // A report without this signal, then the same report with it measured and fully positive.
        const signals = measured.filter((s) => s.key !== key);
        const before = scoreAll(signals);
        const positive: Signal = { key, factor: spec.factor, label: spec.label, maxPoints: spec.points, status: 'verified', fraction: 1, insight: '' };
        const after = scoreAll([...signals, positive]);
        expect(after[spec.factor].score).toBeGreaterThanOrEqual(before[spec.factor].score);
        expect(after.overall.score).toBeGreaterThanOrEqual(before.overall.score);
        expect(after[spec.factor].dataPoints).toBe(before[spec.factor].dataPoints + spec.points);
      }),
    );
  });

  it('improving one signal never lowers its factor', () => {
    fc.assert(
      fc.property(reportSignals({ minLength: 1, maxLength: 30 }), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), (signals, i, bump) => {
        const idx = i % signals.length;
        const s = signals[idx]!;
        if (s.status === 'unverified') return;
        const better = signals.map((x, j) => (j === idx ? { ...x, fraction: Math.min(1, x.fraction + bump) } : x));
        expect(scoreSignals(better.filter((x) => x.factor === s.factor), 0).score).toBeGreaterThanOrEqual(
          scoreSignals(signals.filter((x) => x.factor === s.factor), 0).score,
        );
      }),
    );
  });

  it('leaves unverified signals out instead of counting them as zero', () => {
    const verified: Signal = { key: 'https', factor: 'websiteTrust', label: 'HTTPS', maxPoints: 6, status: 'verified', fraction: 1, insight: '' };
    const unverified: Signal = { ...verified, key: 'performance', maxPoints: 5, status: 'unverified', fraction: 0 };
    expect(scoreSignals([verified, unverified], 20)).toMatchObject({ score: 100, dataPoints: 6, verified: true });
    expect(scoreSignals([unverified], 20)).toMatchObject({ score: 0, label: 'Not measured', verified: false, dataPoints: 0 });
  });

  it('counts simulated signals in the score but not in the verified data points', () => {
    const sim: Signal = { key: 'https', factor: 'websiteTrust', label: 'HTTPS', maxPoints: 6, status: 'simulated', fraction: 1, insight: '' };
    expect(scoreSignals([sim], 20)).toMatchObject({ score: 100, dataPoints: 0 });
  });

  it('calls a score with any simulated signal a sample, never Excellent', () => {
    const real: Signal = { key: 'https', factor: 'websiteTrust', label: 'HTTPS', maxPoints: 6, status: 'verified', fraction: 1, insight: '' };
    const sim: Signal = { ...real, key: 'performance', maxPoints: 5, status: 'simulated' };
    expect(scoreSignals([real], 20)).toMatchObject({ score: 100, label: 'Excellent', sample: false });
    expect(scoreSignals([sim], 20)).toMatchObject({ score: 100, label: 'Sample score', sample: true });
    expect(scoreSignals([real, sim], 20)).toMatchObject({ label: 'Sample score', sample: true, dataPoints: 6 });
  });

  it('leaves unmeasured factors out of the overall score and gives no overall grade below 3 of 6', () => {
    const signal = (key: SignalKey, status: Signal['status'], fraction = 1): Signal => ({
      key, factor: SIGNALS[key].factor, label: SIGNALS[key].label, maxPoints: SIGNALS[key].points, status, fraction, insight: '',
    });
    const three = [signal('googleProfile', 'verified'), signal('googleRating', 'verified', 0.5), signal('openingHours', 'verified'), signal('https', 'unverified')];
    const all = scoreAll(three);
    expect(all.websiteTrust).toMatchObject({ verified: false, label: 'Not measured' });
    expect(all.overall).toMatchObject({ verified: true, factorsMeasured: 3, label: scoreLabel(all.overall.score) });
    // The unmeasured HTTPS signal is not a zero: the overall score is the ratio of the three measured factors alone.
    expect(all.overall.score).toBe(scoreAll(three.slice(0, 3)).overall.score);
    const two = scoreAll(three.slice(0, 2));
    expect(two.overall).toMatchObject({ verified: false, score: 0, label: 'Not enough data', factorsMeasured: 2 });
  });

  it('percentile counts competitors below, ties half', () => {
    expect(percentile(4.5, [4.0, 4.5, 5.0, 3.0])).toBe(63);
    fc.assert(fc.property(fc.double({ min: 0, max: 5, noNaN: true }), fc.array(fc.double({ min: 0, max: 5, noNaN: true }), { minLength: 1 }), (v, o) => {
      const p = percentile(v, o);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(100);
    }));
  });
});
