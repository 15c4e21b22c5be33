import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A comment that names a repository path sends the reader to a file; when that file was renamed or removed the
 * comment misleads. This walks every source file's comments (not strings: example paths and URL paths there are
 * data) and fails on a path that does not exist.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Folders at the top of the repository: a comment path starting with one is read from the root. */
const TOP_FOLDERS = new Set(
  readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== 'node_modules')
    .map((d) => d.name),
);
const SOURCE_EXTENSIONS = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const FILE_EXTENSIONS = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|jsx|json|md|sql|ya?ml|css|html|sh|txt|svg)$/;
/** Built or written at run time, not in a clone: a comment may name it without it existing. */
const GENERATED_SEGMENTS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report', '.cache', '.vite']);
/** What SITE_ROOT holds per app beside its build (release-format.ts): written by deploys, never committed. */
const SITE_LAYOUT = new Set(['releases', 'staged', 'current', 'history.json']);
const SKIPPED_FOLDERS = new Set([...GENERATED_SEGMENTS, 'releases', 'staged', 'data']);

/** Source files under `dir` (repo-relative), skipping built output and dependencies. */
function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // releases/ and staged/ at an app's top are deployed builds; api/src/site/releases is source.
      if (entry.name.startsWith('.') || (SKIPPED_FOLDERS.has(entry.name) && !rel.startsWith('api/src/'))) continue;
      out.push(...sourceFiles(rel));
    } else if (SOURCE_EXTENSIONS.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

function allSourceFiles(): string[] {
  const roots = ['scripts', 'e2e', 'api/src', 'api/scripts', 'api/bench'];
  for (const top of TOP_FOLDERS) {
    if (top === 'shell' || top.startsWith('mfe-')) roots.push(`${top}/src`);
  }
  for (const pkg of readdirSync(path.join(ROOT, 'packages'))) roots.push(`packages/${pkg}`);
  const loose = [...TOP_FOLDERS, '.'].flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true })
      .filter((e) => e.isFile() && SOURCE_EXTENSIONS.test(e.name) && !e.name.endsWith('.d.ts'))
      .map((e) => path.join(dir, e.name)),
  );
  return [...roots.flatMap(sourceFiles), ...loose];
}

/** Every comment of a source file, with the line it starts on. */
function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.m?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const ranges = new Map<number, ts.CommentRange>();
  // JSX text is page content: a `//` in it is no comment.
  const jsxText: [number, number][] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) jsxText.push([node.pos, node.end]);
    for (const range of [...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []), ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? [])]) {
      ranges.set(range.pos, range);
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...ranges.values()]
    .sort((a, b) => a.pos - b.pos)
    .filter((range) => !jsxText.some(([start, end]) => range.pos >= start && range.pos < end))
    .map((range) => ({ line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) }));
}

/** Every file of the repository (repo-relative), built output and dependencies aside. */
function repositoryFiles(dir = '.'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir === '.' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !GENERATED_SEGMENTS.has(entry.name)) out.push(...repositoryFiles(rel));
    } else {
      out.push(rel);
    }
  }
  return out;
}

/** Extensions of the files a short path is checked for: `.js` and `.json` files named in comments are mostly built ones. */
const SHORT_CHECKED = /\.(?:ts|tsx|mts|mjs|md|sql)$/;
/** The same for a bare name, without `.mjs`: the bundles the build writes are `.mjs` files. */
const BARE_CHECKED = /\.(?:ts|tsx|mts|md|sql)$/;

/** The words of a comment that read as repository paths (`api/src/x.ts`, `site/releases/y.ts`, `../z.ts`, `docs/a.md`, `y.ts`). */
function pathsIn(comment: string): string[] {
  const paths: string[] = [];
  for (const raw of comment.split(/[\s,;()[\]<>`'"|]+/)) {
    // Trailing punctuation and a line or anchor reference (`x.ts:42`, `a.md#section`) are not part of the path.
    const cut = raw.search(/[:#]/);
    let word = cut === -1 ? raw : raw.slice(0, cut);
    while (/[.!?]$/.test(word)) word = word.slice(0, -1);
    if (word.startsWith('/') || /[*{}$=@?~\\]/.test(word) || word.includes('//')) continue;
    if (!/^(?:\.\.?\/)*\w[\w.-]*(?:\/[\w.-]+)*\/?$/.test(word)) continue;
    const segments = word.split('/').filter((s) => s && s !== '.' && s !== '..');
    if (segments.some((s) => GENERATED_SEGMENTS.has(s))) continue;
    // An app's folder as a site holds it at run time (`shell/releases/`, `mfe-blog/current`), not a repository path.
    if (/^(?:shell|mfe-[\w-]+)$/.test(segments[0] ?? '') && SITE_LAYOUT.has(segments[1] ?? '')) continue;
    const relative = word.startsWith('.');
    const rooted = segments.length > 1 && TOP_FOLDERS.has(segments[0]!);
    if (relative) {
      // A relative word without an extension is as often a module's exposed name (`./App`) as a folder.
      if (FILE_EXTENSIONS.test(word) ? !SHORT_CHECKED.test(word) : segments.length < 2) continue;
    } else if (!rooted && !(segments.length > 1 ? SHORT_CHECKED : BARE_CHECKED).test(word)) {
      // Otherwise only a source file's name is a path; `read/write`, `posts/:slug` or `history.json` is not one here.
      continue;
    }
    paths.push(word);
  }
  return paths;
}

/** Whether a dependency of the workspace is named (`kysely/helpers/postgres.js`): not a repository path. */
function isPackagePath(word: string): boolean {
  const first = word.split('/')[0]!;
  return ['.', 'api', 'e2e'].some((dir) => existsSync(path.join(ROOT, dir, 'node_modules', first)));
}

const importForms = (p: string) => [p, `${p}.ts`, `${p}.tsx`, `${p}.mjs`, p.replace(/\.js$/, '.ts'), p.replace(/\.js$/, '.tsx')];

/**
 * Whether `word`, named in a comment of `file`, exists: a relative path from the file's folder, a path starting with
 * a top folder from the root, a shorter one (`site/releases/x.ts`, `migrations/0007-releases.ts`) as the end of
 * some file's path, a bare name as some file's name.
 */
function resolves(file: string, word: string, files: { paths: Set<string>; suffixes: Set<string> }): boolean {
  if (word.startsWith('.')) return importForms(path.join(ROOT, path.dirname(file), word)).some((p) => existsSync(p));
  const segments = word.split('/').filter(Boolean);
  if (segments.length > 1 && TOP_FOLDERS.has(segments[0]!)) return importForms(path.join(ROOT, word)).some((p) => existsSync(p));
  return importForms(word).some((p) => files.suffixes.has(p)) || isPackagePath(word);
}

/** The repository's files, and every tail of their paths (`releases/x.ts`, `x.ts` for `api/src/site/releases/x.ts`). */
function indexRepository(paths: string[]): { paths: Set<string>; suffixes: Set<string> } {
  const suffixes = new Set<string>();
  for (const p of paths) {
    const parts = p.split('/');
    for (let i = 0; i < parts.length; i++) suffixes.add(parts.slice(i).join('/'));
  }
  return { paths: new Set(paths), suffixes };
}

describe('paths named in comments', () => {
  it('reads a path in a comment, not in code, a string or JSX text', () => {
    const text = [
      "// see api/src/config.ts and site/releases/gone.ts, not '/api/posts' or read/write or shell/releases/ (a site's)",
      "const example = 'docs/missing.md'; /* ../nowhere/file.ts */",
      'const jsx = <p>// not/a/comment.ts</p>; // gone.tsx',
    ].join('\n');
    const words = commentsOf('api/src/probe.tsx', text).flatMap((c) => pathsIn(c.text));
    expect(words).toEqual(['api/src/config.ts', 'site/releases/gone.ts', '../nowhere/file.ts', 'gone.tsx']);
    const files = indexRepository(['api/src/config.ts', 'api/src/site/releases/here.ts']);
    expect(words.filter((w) => !resolves('api/src/probe.tsx', w, files))).toEqual(['site/releases/gone.ts', '../nowhere/file.ts', 'gone.tsx']);
  });

  it('every path a source comment names exists', () => {
    const files = indexRepository(repositoryFiles());
    const dangling: string[] = [];
    // This file's own comments show the forms with made-up names.
    for (const file of allSourceFiles().filter((f) => f !== 'scripts/__tests__/comment-paths.test.ts')) {
      for (const comment of commentsOf(file, readFileSync(path.join(ROOT, file), 'utf8'))) {
        for (const word of pathsIn(comment.text)) {
          if (!resolves(file, word, files)) dangling.push(`${file}:${comment.line} names ${word}`);
        }
      }
    }
    expect(dangling, 'rename the path in the comment, or drop it').toEqual([]);
    // Every source file parsed: about 10 s on a quiet 2-core machine, three times that under load.
  }, 120_000);
});
