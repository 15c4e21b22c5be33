import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative link of the README and the guides in docs/ points at a file that exists and, with a `#fragment`, at
// a heading of that file (GitHub's anchors), so a moved section or a renamed guide fails here, not for a reader.
const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced blocks. */
const unfenced = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
/** The text outside fenced blocks and inline code, where a `[text](target)` is a link. */
const prose = (markdown: string): string => unfenced(markdown).replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of each heading: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of unfenced(markdown).matchAll(/^#{1,6} ([^\n]*)$/gm)) {
    const base = heading!
      .trim()
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count ? `${base}-${count}` : base);
  }
  return result;
}

function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe('links between the README and the guides', () => {
  it.each(DOCS)('%s: every relative link resolves', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    const broken: string[] = [];
    for (const link of links(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: …
      const [target = '', fragment] = link.split('#');
      const file = target ? path.resolve(path.dirname(path.join(ROOT, doc)), decodeURI(target)) : path.join(ROOT, doc);
      if (!existsSync(file)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (fragment && !(statSync(file).isFile() && file.endsWith('.md') && anchors(readFileSync(file, 'utf8')).has(fragment))) {
        broken.push(`${link}: no heading #${fragment}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds links and GitHub anchors as GitHub does', () => {
    expect(links('See [a](docs/a.md#x) and `[b](no.md)`.\n```\n[c](no.md)\n```\n')).toEqual(['docs/a.md#x']);
    expect([...anchors("## The deploy tool: `site-deploy.mjs`\n## Search uses the database's index\n## A\n## A\n")]).toEqual([
      'the-deploy-tool-site-deploymjs',
      'search-uses-the-databases-index',
      'a',
      'a-1',
    ]);
  });
});
