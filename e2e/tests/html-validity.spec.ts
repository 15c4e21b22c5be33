import { expect, test } from '../support/test';
import { HtmlValidate, Rule, type DOMReadyEvent, type Message, type Plugin } from 'html-validate';
import { PUBLIC_ROUTES, settle } from '../support/public-routes';

/**
 * A rule of the Nu HTML checker that html-validate lacks: a popovertarget button has its expanded state natively
 * (the browser reports whether its popover is open), so ARIA in HTML forbids an aria-expanded beside popovertarget.
 */
class NoAriaExpandedWithPopovertarget extends Rule {
  override documentation() {
    return { description: 'An element with popovertarget must not carry aria-expanded: the popover gives its expanded state.' };
  }
  override setup() {
    this.on('dom:ready', ({ document }: DOMReadyEvent) => {
      for (const element of document.querySelectorAll('[popovertarget][aria-expanded]')) {
        this.report(element, 'aria-expanded on an element with popovertarget (the browser exposes whether its popover is open)');
      }
    });
  }
}
const siteRules: Plugin = { name: 'site', rules: { 'site/no-aria-expanded-with-popovertarget': NoAriaExpandedWithPopovertarget } };

/*
 * The rendered DOM of every public route (what the shell and the remote made of the page, after its data came)
 * is valid HTML, checked by html-validate with its `standard` preset (only what the HTML standard requires:
 * content models such as no <style> in the body or <div> in a <ul>, unique ids, valid attributes and values,
 * closed elements) and `document` (a whole document: doctype, <html lang>, one <title>, ...), and the Nu checker's
 * rules html-validate lacks (siteRules above): close to the Nu HTML checker's rules (e2e/scripts/nu-check.mjs runs
 * the Nu checker itself).
 */
const validator = new HtmlValidate({
  extends: ['html-validate:standard', 'html-validate:document'],
  plugins: [siteRules],
  rules: {
    'site/no-aria-expanded-with-popovertarget': 'error',
    // Not HTML validity: our own scripts need no integrity hashes (the CSP names what may run).
    'require-sri': 'off',
    // HTML allows several h1 (the solution-design pages' print overview has its own, hidden on screen); skipped
    // levels are still reported.
    'heading-level': ['error', { allowMultipleH1: true }],
  },
});

const describeMessage = (m: Message) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}${m.selector ? ` (${m.selector})` : ''}`;

// One test per route, in any order: both workers take them.
test.describe.configure({ mode: 'parallel' });

for (const { path, h1 } of PUBLIC_ROUTES) {
  test(`the rendered DOM of ${path} is valid HTML`, async ({ page }) => {
    await page.goto(path);
    await settle(page, h1);
    const html = await page.evaluate(() => `<!DOCTYPE html>\n${document.documentElement.outerHTML}`);
    const result = await validator.validateString(html, `${path}.html`);
    const report = result.results.flatMap((r) => r.messages.map((m) => `${path} ${describeMessage(m)}`));
    expect(report, report.join('\n')).toEqual([]);
  });
}
