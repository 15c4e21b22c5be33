import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ShellServerEntry } from '@site/contracts/server-render';
import { statShared } from '../../lib/stat-shared';
import { currentShell, PREVIOUS_RELEASES_SERVED, RELEASE_NAME, RELEASES_DIR, remoteDir } from '../releases/release-format';
import type { ShellServer } from './shell-server';

/**
 * The serving shell as one page request reads it, once: its document, its server entry and its folder, all of one
 * release (a shell deployed meanwhile is the next request's), so a page is rendered, and cached, with one shell.
 */
export interface ShellPage {
  /** The shell build's `index.html`, placeholders intact. */
  html: string;
  /** CSP sources (`'sha256-…'`) of its inline scripts. */
  scriptHashes: string[];
  /** The shell build's folder (`shell/releases/<version>/`, else `shell/dist/`). */
  dir: string;
  /** Its release (`dist` while shell/dist is served in place). */
  version: string;
  /** Its server entry, null when it has none (pages are then rendered in the browser). */
  entry: ShellServerEntry | null;
}

export interface ShellDocument {
  /** Folders whose files are served at `/`: the serving shell's, then earlier releases' (hashed assets of open tabs). */
  dirs(): Promise<{ current: string; previous: string[] }>;
  /** The shell page, or null when the shell has not been built. Re-read when the file changes. */
  load(): Promise<ShellPage | null>;
  /** Hashes for the CSP; empty when the shell is missing. Never throws. */
  scriptHashes(): Promise<string[]>;
}

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const DATA_TYPES = new Set(['application/json', 'application/ld+json']);

/**
 * `'sha256-…'` of every inline script the browser would execute: no `src`, and not a data block
 * (`application/json`, `application/ld+json`), which CSP does not govern.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', body = ''] of html.matchAll(SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(` ${attributes}`)?.[1]?.toLowerCase();
    if (type && DATA_TYPES.has(type)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** Earlier shell releases than `current`, newest first (by folder time: deploy order), as many as are served. */
async function earlierReleases(releases: string, current: string): Promise<string[]> {
  try {
    const entries = await readdir(releases, { withFileTypes: true });
    const found = await Promise.all(
      entries
        .filter((e) => e.isDirectory() && RELEASE_NAME.test(e.name) && path.join(releases, e.name) !== current)
        .map(async (e) => ({ dir: path.join(releases, e.name), at: (await stat(path.join(releases, e.name)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    return found.sort((a, b) => b.at - a.at).slice(0, PREVIOUS_RELEASES_SERVED).map((f) => f.dir);
  } catch {
    return [];
  }
}

export function createShellDocument(options: { siteRoot: string; server?: Pick<ShellServer, 'loadFrom'> }): ShellDocument {
  let cached: { key: string; page: ShellPage } | undefined;
  let listed: { key: string; previous: string[] } | undefined;

  async function load(): Promise<ShellPage | null> {
    const shell = await currentShell(options.siteRoot);
    const file = path.join(shell.dir, 'index.html');
    const info = await statShared(file);
    if (!info) {
      cached = undefined;
      return null;
    }
    const entry = (await options.server?.loadFrom(shell.dir)) ?? null;
    // One page object while nothing changes: the render cache's key is computed once per object.
    const key = `${shell.dir}:${info.mtimeMs}:${info.ctimeMs}:${info.size}`;
    if (cached?.key === key && cached.page.entry === entry) return cached.page;
    let html: string;
    try {
      html = cached?.key === key ? cached.page.html : await readFile(file, 'utf8');
    } catch {
      return null;
    }
    const page: ShellPage = { html, scriptHashes: inlineScriptHashes(html), dir: shell.dir, version: shell.version ?? 'dist', entry };
    cached = { key, page };
    return page;
  }

  return {
    load,
    async dirs() {
      const { dir } = await currentShell(options.siteRoot);
      const releases = path.join(remoteDir(options.siteRoot, 'shell'), RELEASES_DIR);
      // Listed again only when the releases folder changes (its stat is held in memory: lib/stat-shared.ts).
      const info = await statShared(releases);
      const key = `${dir}|${info ? `${info.ino}:${info.mtimeMs}:${info.ctimeMs}` : 'absent'}`;
      if (listed?.key !== key) listed = { key, previous: await earlierReleases(releases, dir) };
      return { current: dir, previous: listed.previous };
    },
    async scriptHashes() {
      try {
        return (await load())?.scriptHashes ?? [];
      } catch {
        return [];
      }
    },
  };
}
