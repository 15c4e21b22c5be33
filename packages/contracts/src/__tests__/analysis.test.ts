import { describe, expect, it } from 'vitest';
import { inferBusinessType, normalizeWebsiteUrl, scoreColor, scoreLabel, smbAnalysisRequestSchema, websiteAnalysisRequestSchema } from '../analysis';
import { websiteUrlProblem } from '../analysis-rules';

describe('analysis contract rules', () => {
  it('infers the business type in the spec order, case-insensitive, otherwise Service', () => {
    expect(inferBusinessType("Mario's ITALIAN Kitchen")).toBe('Restaurant');
    expect(inferBusinessType('Pet Grooming Spa')).toBe('Service');
    expect(inferBusinessType('Corner Gift Shop')).toBe('Retail');
    expect(inferBusinessType('Valley Dental Care')).toBe('Healthcare');
    // Order matters: 'cafe' (Restaurant) wins over 'shop' (Retail); 'repair' (Service) over 'store' (Retail).
    expect(inferBusinessType('Coffee Shop Cafe')).toBe('Restaurant');
    expect(inferBusinessType('Phone Repair Store')).toBe('Service');
    expect(inferBusinessType('Health Food Market')).toBe('Retail');
    expect(inferBusinessType('Acme Widgets')).toBe('Service');
  });

  it('adds https:// to a URL without a scheme', () => {
    expect(normalizeWebsiteUrl('example.com')).toBe('https://example.com');
    expect(normalizeWebsiteUrl('http://example.com')).toBe('http://example.com');
    expect(normalizeWebsiteUrl(' HTTPS://example.com ')).toBe('HTTPS://example.com');
    expect(websiteAnalysisRequestSchema.parse({ url: 'shop.example', mode: 'website' }).url).toBe('https://shop.example');
  });

  it('labels and colours follow 80/60/40', () => {
    expect([85, 80, 79, 60, 59, 40, 39, 0].map(scoreLabel)).toEqual(['Excellent', 'Excellent', 'Good', 'Good', 'Fair', 'Fair', 'Poor', 'Poor']);
    expect([80, 60, 40, 39].map(scoreColor)).toEqual(['text-green-600', 'text-yellow-600', 'text-orange-600', 'text-red-600']);
  });

  it('requires a business name and treats empty optional fields as absent', () => {
    expect(smbAnalysisRequestSchema.safeParse({ businessName: '' }).success).toBe(false);
    expect(smbAnalysisRequestSchema.parse({ businessName: ' Joe ', website: '', location: '' })).toEqual({ businessName: 'Joe' });
  });
});

describe('websiteUrlProblem: the zod-free rule of the website request url', () => {
  it('says what the schema says, first message first', () => {
    for (const raw of ['', '   ', 'example.com', 'https://example.com/a?b=c', 'http://', 'https://exa mple.com', `https://example.com/${'a'.repeat(2050)}`, 'example.com\u0000', 'exa\u202emple.com', 'https://[::1', '\ud800.com']) {
      const zod = websiteAnalysisRequestSchema.shape.url.safeParse(raw);
      expect(websiteUrlProblem(raw), JSON.stringify(raw)).toBe(zod.success ? null : zod.error.issues[0]!.message);
    }
  });
});
