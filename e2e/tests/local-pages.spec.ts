import { expect, test, type Page, type Route } from '../support/test';

import { watchPageErrors } from '../support/page-errors';
import { eventsOf, nextEvent, readableTracking } from '../support/tracking';

type Town = {
  town: string;
  path: string;
  pageId: string;
  action: string;
  headline: string;
  /** Copy that only this town's page has. */
  specific: string;
  geo: [number, number];
  hero: [string, string];
  storyButton: string;
  solutionPath: string;
  band: [string, string];
};

const TOWNS: Town[] = [
  {
    town: 'Danville',
    path: '/local-services/danville-ai-automation',
    pageId: 'danville_local_page',
    action: 'ai_automation',
    headline: 'AI Automation for Danville Restaurants and Retail',
    specific: 'Restaurant Ordering & Reservations',
    geo: [37.82, -122.0],
    hero: ['Get Launch Pricing', 'See Our Approach'],
    storyButton: 'See Our Approach',
    solutionPath: '/case-studies/danville-restaurant-automation',
    band: ['Claim Launch Pricing', 'Schedule Consultation'],
  },
  {
    town: 'San Ramon',
    path: '/local-services/san-ramon-business-automation',
    pageId: 'san_ramon_local_page',
    action: 'business_automation',
    headline: 'Business Automation for San Ramon Tech and Service Companies',
    specific: 'Tech Company Workflow Automation',
    geo: [37.78, -121.98],
    hero: ['Get Launch Pricing', 'See Our Approach'],
    storyButton: 'Read Full Case Study',
    solutionPath: '/case-studies/san-ramon-tech-automation',
    band: ['Claim Launch Pricing', 'Schedule Consultation'],
  },
  {
    town: 'Walnut Creek',
    path: '/local-services/walnut-creek-ai-solutions',
    pageId: 'walnut_creek_local_page',
    action: 'ai_solutions',
    headline: 'AI Solutions for Walnut Creek Retail and Restaurants',
    specific: 'Retail Inventory & Checkout',
    geo: [37.91, -122.07],
    hero: ['Claim Launch Pricing', 'Schedule Consultation'],
    storyButton: 'Read Full Case Study',
    solutionPath: '/case-studies/walnut-creek-retail-automation',
    band: ['Get Free AI Assessment', 'Schedule Demo'],
  },
  {
    town: 'Pleasanton',
    path: '/local-services/pleasanton-automation-services',
    pageId: 'pleasanton_local_page',
    action: 'automation_services',
    headline: 'Automation Services for Pleasanton Manufacturers and Service Businesses',
    specific: 'Manufacturing Operations',
    geo: [37.66, -121.87],
    hero: ['Get Launch Pricing', 'See Our Approach'],
    storyButton: 'See Our Approach',
    solutionPath: '/case-studies/pleasanton-manufacturing-automation',
    band: ['Claim Launch Pricing', 'Schedule Consultation'],
  },
];

/**
 * Holds the city pages' click recordings (POST /api/events, local_page_click) at the network, so the busy
 * wording a button shows while its click is recorded stays on screen until the test lets the request
 * through (`release`) or fails it (`fail`), oldest first. Call before page.goto.
 */
async function holdClickRecordings(page: Page) {
  const held: Route[] = [];
  await page.route('**/api/events', async (route) => {
    const request = route.request();
    if (request.method() === 'POST' && eventsOf(request).some((e) => e.name === 'local_page_click')) held.push(route);
    else await route.fallback();
  });
  const oldest = async () => {
    await expect.poll(() => held.length, { message: 'a click recording reached the network' }).toBeGreaterThan(0);
    return held.shift()!;
  };
  return {
    release: async () => (await oldest()).continue(),
    fail: async () => (await oldest()).abort('failed'),
  };
}

async function expectOnHomeSection(page: Page, id: string) {
  await expect(page).toHaveURL(new RegExp(`/#${id}$`));
  await expect(page.locator(`#${id}`)).toBeInViewport();
}

test.beforeEach(async ({ page }) => readableTracking(page));

test.describe('/local-services', () => {
  test('shows four town cards with their badges, each linking to its town page', async ({ page }) => {
    const errors = watchPageErrors(page);
    await page.goto('/local-services');
    await expect(page.getByRole('heading', { level: 1, name: 'Local AI Automation Services' })).toBeVisible();
    const badges: Record<string, string> = { Danville: 'DANVILLE20', 'San Ramon': 'TECH HUB', 'Walnut Creek': 'DOWNTOWN', Pleasanton: 'INDUSTRY' };
    for (const t of TOWNS) {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: t.town, exact: true }) });
      await expect(card.getByText(badges[t.town]!, { exact: true })).toBeVisible();
      await expect(card.getByRole('link', { name: t.town, exact: true })).toHaveAttribute('href', t.path);
    }
    await page.getByRole('main').getByRole('link', { name: 'Pleasanton', exact: true }).click();
    await expect(page).toHaveURL(/\/local-services\/pleasanton-automation-services$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TOWNS[3]!.headline);
    errors.expectClean();
  });

  test("'Get Launch Pricing' records an event and scrolls the home page to #contact", async ({ page }) => {
    await page.goto('/local-services');
    const event = nextEvent(page, 'local_services_click');
    await page.getByRole('button', { name: 'Get Launch Pricing' }).click();
    expect((await event).props).toEqual({ action: 'get_launch_pricing' });
    await expectOnHomeSection(page, 'contact');
  });

  test("'See Our Approach' scrolls the home page to #projects", async ({ page }) => {
    await page.goto('/local-services');
    await page.getByRole('button', { name: 'See Our Approach' }).click();
    await expectOnHomeSection(page, 'projects');
  });
});

for (const t of TOWNS) {
  test.describe(`${t.town} page`, () => {
    test('renders its own copy and layout', async ({ page }) => {
      const errors = watchPageErrors(page);
      await page.goto(t.path);
      await expect(page).toHaveTitle(new RegExp(`${t.town}, CA`));
      const hero = page.getByRole('region', { name: t.headline });
      await expect(hero.getByRole('heading', { level: 1 })).toHaveText(t.headline);
      await expect(hero.getByText(`${t.town}, CA`, { exact: true })).toBeVisible();
      for (const label of t.hero) await expect(hero.getByRole('button', { name: label, exact: true })).toBeEnabled();
      await expect(page.getByRole('heading', { level: 3, name: t.specific })).toBeVisible();
      // three why-choose-us cards, two service cards with four bullets each
      await expect(page.locator('#why-choose-us li')).toHaveCount(3);
      const services = page.locator('#local-services');
      await expect(services.getByRole('heading', { level: 3 })).toHaveCount(2);
      await expect(services.getByRole('listitem')).toHaveCount(8);
      await expect(services.getByRole('button', { name: 'Explore Solution' })).toBeVisible();
      await expect(services.getByRole('button', { name: 'Learn More' })).toBeVisible();
      for (const label of t.band) await expect(page.getByRole('button', { name: label, exact: true }).last()).toBeVisible();
      errors.expectClean();
    });

    test('serves title, canonical and local-business JSON-LD in the HTML, without JavaScript', async ({ request, baseURL }) => {
      const res = await request.get(t.path);
      expect(res.status()).toBe(200);
      const html = await res.text();
      expect(html).toMatch(new RegExp(`<title>[^<]*${t.town}, CA[^<]*</title>`));
      expect(html).toContain(`<link rel="canonical" href="${baseURL}${t.path}"`);
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].flatMap((m) => [JSON.parse(m[1]!)].flat());
      const local = blocks.find((b) => b.serviceArea?.geoRadius === 5000);
      expect(local).toMatchObject({
        name: expect.stringContaining(t.town),
        description: expect.any(String),
        // The server makes the remote's site paths absolute: crawlers need full URLs.
        url: `${baseURL}${t.path}`,
        telephone: '(925) 555-0142',
        email: 'hello@trivalleyai.com',
        address: { addressRegion: 'CA' },
        areaServed: { name: `${t.town}, CA` },
        priceRange: '$$',
        openingHours: 'Mo-Fr 09:00-18:00',
      });
      expect(local.geo.latitude).toBeCloseTo(t.geo[0], 1);
      expect(local.geo.longitude).toBeCloseTo(t.geo[1], 1);
      const regional = blocks.find((b) => b.serviceArea?.geoRadius === 50000);
      if (t.town === 'Danville') expect(regional?.areaServed).toHaveLength(4);
      else expect(regional).toBeUndefined();
    });

    test(`'${t.hero[0]}' records ${t.action} and scrolls the home page to #contact`, async ({ page }) => {
      await page.goto(t.path);
      const event = nextEvent(page, 'local_page_click');
      await page.getByRole('button', { name: t.hero[0], exact: true }).first().click();
      expect((await event).props).toEqual({ page: t.pageId, action: t.action });
      await expectOnHomeSection(page, 'contact');
    });

    test(`case-study button '${t.storyButton}' records case_study and opens the solution design`, async ({ page }) => {
      await page.goto(t.path);
      const event = nextEvent(page, 'local_page_click');
      await page.getByRole('button', { name: t.storyButton, exact: true }).last().click();
      expect((await event).props).toEqual({ page: t.pageId, action: 'case_study' });
      await expect(page).toHaveURL(new RegExp(`${t.solutionPath}$`));
      await expect(page.getByRole('link', { name: `Back to ${t.town} Services` })).toBeVisible();
    });

    test('service and bottom-band buttons go to the home contact section', async ({ page }) => {
      for (const [label, index] of [['Learn More', 0], [t.band[1], -1]] as const) {
        await page.goto(t.path);
        const buttons = page.getByRole('button', { name: label, exact: true });
        await (index === -1 ? buttons.last() : buttons.nth(index)).click();
        await expectOnHomeSection(page, 'contact');
      }
    });
  });
}

for (const t of TOWNS.filter((x) => x.town !== 'Walnut Creek')) {
  test(`${t.town}: busy wording while the click is recorded, then the home section; a failed recording does not stop the visitor`, async ({ page }) => {
    const recordings = await holdClickRecordings(page);
    await page.goto(t.path);
    const hero = page.getByRole('region', { name: t.headline });

    const event = nextEvent(page, 'local_page_click');
    await hero.getByRole('button', { name: 'See Our Approach' }).click();
    const loading = hero.getByRole('button', { name: 'Loading...' });
    await expect(loading).toBeVisible();
    await expect(loading).toBeDisabled();
    await expect(hero.getByRole('button', { name: 'Get Launch Pricing' })).toBeDisabled();
    await expect(page).toHaveURL(new RegExp(`${t.path}$`));
    await recordings.release();
    expect((await event).props).toEqual({ page: t.pageId, action: 'view_services' });
    await expectOnHomeSection(page, 'services');

    await page.goto(t.path);
    await hero.getByRole('button', { name: 'Get Launch Pricing' }).click();
    const busy = hero.getByRole('button', { name: 'Getting Launch Pricing...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    await expect(hero.getByRole('button', { name: 'See Our Approach' })).toBeDisabled();
    await recordings.fail();
    // Analytics never traps the visitor: the click still goes where it says.
    await expectOnHomeSection(page, 'contact');
  });
}

test('Walnut Creek: hero buttons have a busy state, the case-study and bottom-band buttons none', async ({ page }) => {
  const wc = TOWNS[2]!;
  await holdClickRecordings(page);
  await page.goto(wc.path);
  await expect(page.getByRole('button', { name: 'Get Launch Pricing', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'See Our Approach' })).toHaveCount(0);
  const hero = page.getByRole('region', { name: wc.headline });
  await hero.getByRole('button', { name: 'Claim Launch Pricing' }).click();
  await expect(hero.getByRole('button', { name: 'Getting Launch Pricing...' })).toBeDisabled();
  await expect(hero.getByRole('button', { name: 'Schedule Consultation' })).toBeDisabled();
  // Not gated by the busy flag: these stay enabled and navigate at once.
  await expect(page.getByRole('button', { name: 'Get Free AI Assessment' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Read Full Case Study' })).toBeEnabled();
  await page.getByRole('button', { name: 'Schedule Demo' }).click();
  await expectOnHomeSection(page, 'contact');
});
