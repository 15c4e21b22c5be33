// @vitest-environment jsdom
// jsdom, not the project's happy-dom: its HTML parser reads Word's <![if …]> markers and <o:p> as browsers do.
import { describe, expect, it } from 'vitest';
import { cleanPastedHtml } from '../lib/clean-pasted-html';
import { readLinkAddress } from '../lib/link-address';
import { GOOGLE_DOCS_HTML, WORD_HTML } from './paste-fixtures';

describe('cleanPastedHtml (paste from Word and Google Docs)', () => {
  it("keeps Word's headings, paragraphs, lists and links, and drops its markup, styles, script and unusable image", () => {
    const html = cleanPastedHtml(WORD_HTML);
    expect(html).toBe(
      '<h2>Why salons automate</h2>' +
        '<p>Reminders cut no-shows. Read <a href="https://example.com/study">the study</a> or this.</p>' +
        '<h2>Three quick wins</h2>' +
        '<ul><li>Text reminders</li><li>Online booking</li></ul>' +
        '<ol><li>Pick a tool</li><li>Turn it on</li></ol>',
    );
    expect(html).not.toMatch(/script|style|class=|<span|o:p|mso|<!--|file:/i);
  });

  it("unwraps Google Docs' <b id=docs-internal-guid…> (no bold paste) and keeps its bold span as <strong>", () => {
    const html = cleanPastedHtml(GOOGLE_DOCS_HTML);
    expect(html).toBe(
      '<h2>Book online</h2><p>Guests book at night. <strong>Always.</strong></p><ul><li><p>Fewer calls</p></li></ul><p><a href="https://example.com/">Read more</a></p>',
    );
  });

  it('nests Word list levels and keeps a site path, mailto and anchor link', () => {
    const word = (level: number, text: string) =>
      `<p class=MsoListParagraph style='mso-list:l0 level${level} lfo1'><![if !supportLists]><span style='mso-list:Ignore'>o<span>&nbsp;</span></span><![endif]>${text}</p>`;
    expect(cleanPastedHtml(word(1, 'One') + word(2, 'One a') + word(1, 'Two'))).toBe('<ul><li>One<ul><li>One a</li></ul></li><li>Two</li></ul>');
    expect(cleanPastedHtml('<p><a href="/blog/x" onclick="x()">a</a> <a href="mailto:a@b.co">b</a> <a href="#top">c</a> <a href="data:text/html,x">d</a></p>')).toBe(
      '<p><a href="/blog/x">a</a> <a href="mailto:a@b.co">b</a> <a href="#top">c</a> d</p>',
    );
  });
});

describe('readLinkAddress (the link form)', () => {
  it('takes what the server keeps, adds https:// or mailto: where it is plain, and refuses the rest', () => {
    expect(readLinkAddress(' https://example.com/a?b=1 ')).toEqual({ href: 'https://example.com/a?b=1' });
    expect(readLinkAddress('/blog/start-small')).toEqual({ href: '/blog/start-small' });
    expect(readLinkAddress('example.com/pricing')).toEqual({ href: 'https://example.com/pricing' });
    expect(readLinkAddress('owner@salon.com')).toEqual({ href: 'mailto:owner@salon.com' });
    expect(readLinkAddress('javascript:alert(1)')).toHaveProperty('problem');
    expect(readLinkAddress('//evil.example')).toHaveProperty('problem');
    expect(readLinkAddress('')).toEqual({ problem: "Enter the link's address." });
  });
});
