import { afterEach, describe, expect, it } from 'vitest';
import { SITE, hoursText, openingHoursSchema, siteOrigin } from '../site';

describe("the business's hours (issue 54, item 3)", () => {
  it('are shown as the spec says them: Mon-Fri 9AM-6PM', () => {
    expect(SITE.hours).toBe('Mon-Fri 9AM-6PM');
  });

  it("structured data's openingHours says the hours visitors read, from the same value", () => {
    expect(openingHoursSchema(SITE.openingHours)).toBe('Mo-Fr 09:00-18:00');
    expect(SITE.hours).toBe(hoursText(SITE.openingHours));
    // Read back from the two texts, the days and times agree.
    const shown = /^(\w{3})-(\w{3}) (\d+)(AM|PM)-(\d+)(AM|PM)$/.exec(SITE.hours)!;
    const schema = /^(\w{2})-(\w{2}) (\d{2}):00-(\d{2}):00$/.exec(openingHoursSchema(SITE.openingHours))!;
    const hour24 = (h: string, half: string) => (Number(h) % 12) + (half === 'PM' ? 12 : 0);
    expect([shown[1]!.slice(0, 2), shown[2]!.slice(0, 2)]).toEqual([schema[1], schema[2]]);
    expect([hour24(shown[3]!, shown[4]!), hour24(shown[5]!, shown[6]!)]).toEqual([Number(schema[3]), Number(schema[4])]);
  });

  it('spells other hours the same ways', () => {
    const hours = { days: 'Tu-Sa', opens: '08:30', closes: '12:00' } as const;
    expect(hoursText(hours)).toBe('Tue-Sat 8:30AM-12PM');
    expect(openingHoursSchema(hours)).toBe('Tu-Sa 08:30-12:00');
    expect(hoursText({ days: 'Su', opens: '00:00', closes: '23:45' })).toBe('Sun 12AM-11:45PM');
  });
});

describe("the site's origin in the browser (issue 54, item 2)", () => {
  afterEach(() => document.documentElement.removeAttribute('data-site-origin'));

  it("is the server's PUBLIC_ORIGIN written on <html>, not the host the page was opened by", () => {
    document.documentElement.setAttribute('data-site-origin', 'http://localhost:3103');
    expect(window.location.origin).not.toBe('http://localhost:3103');
    expect(siteOrigin()).toBe('http://localhost:3103');
  });

  it('is the address the page was opened at when the server named none (or nothing usable)', () => {
    expect(siteOrigin()).toBe(window.location.origin);
    document.documentElement.setAttribute('data-site-origin', 'javascript:alert(1)');
    expect(siteOrigin()).toBe(window.location.origin);
  });
});
