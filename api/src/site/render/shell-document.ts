import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { statShared } from '../../lib/stat-shared';

export interface ShellPage {
  /** The built `shell/dist/index.html`, placeholders intact. */
  html: string;
  /** CSP sources (`'sha256-…'`) of its inline scripts. */
  scriptHashes: string[];
}

export interface ShellDocument {
  /** Directory served at `/`. */
  distDir: string;
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

export function createShellDocument(options: { siteRoot: string }): ShellDocument {
  const distDir = path.join(options.siteRoot, 'shell', 'dist');
  const file = path.join(distDir, 'index.html');
  let cached: { key: string; page: ShellPage } | undefined;

  async function load(): Promise<ShellPage | null> {
    const info = await statShared(file);
    if (!info) {
      cached = undefined;
      return null;
    }
    const key = `${info.mtimeMs}:${info.ctimeMs}:${info.size}`;
    if (cached?.key === key) return cached.page;
    let html: string;
    try {
      html = await readFile(file, 'utf8');
    } catch {
      return null;
    }
    const page = { html, scriptHashes: inlineScriptHashes(html) };
    cached = { key, page };
    return page;
  }

  return {
    distDir,
    load,
    async scriptHashes() {
      try {
        return (await load())?.scriptHashes ?? [];
      } catch {
        return [];
      }
    },
  };
}
