import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const HASHED = /-[\w-]{8}\.(?:js|css)$/;

/**
 * Another release of a remote, made from its built dist the way a build would write it, without building: `edit`
 * rewrites the text of its files (.js, .json, .html, .css); every hashed chunk whose bytes changed gets a new content
 * hash in its name (and the files naming it are updated, up to remoteEntry.js), and the brotli and gzip copies of
 * what changed are written again. Returns the files `edit` changed (paths inside `out`).
 */
export function releaseFrom(dist: string, out: string, edit: (file: string, text: string) => string): string[] {
  cpSync(dist, out, { recursive: true });
  const files = () => readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:js|json|html|css)$/.test(f));
  const changed = new Set<string>();
  for (const file of files()) {
    const text = readFileSync(path.join(out, file), 'utf8');
    const next = edit(file, text);
    if (next !== text) {
      writeFileSync(path.join(out, file), next);
      changed.add(file);
    }
  }
  const edited = [...changed];
  // New content, new name: rename each changed hashed chunk and rewrite whoever names it, until nothing moves.
  const renamed = new Set<string>();
  for (let pending = [...changed].filter((f) => HASHED.test(f)); pending.length > 0; ) {
    const next: string[] = [];
    for (const file of pending) {
      if (renamed.has(file)) continue;
      const hash = createHash('sha256').update(readFileSync(path.join(out, file))).digest('base64url').slice(0, 7);
      const renamedTo = file.replace(/-[\w-]{8}\.(js|css)$/, `-N${hash}.$1`);
      renameSync(path.join(out, file), path.join(out, renamedTo));
      for (const suffix of ['.br', '.gz']) rmSync(path.join(out, file + suffix), { force: true });
      renamed.add(renamedTo);
      changed.delete(file);
      changed.add(renamedTo);
      const [oldName, newName] = [path.basename(file), path.basename(renamedTo)];
      for (const other of files()) {
        const text = readFileSync(path.join(out, other), 'utf8');
        if (!text.includes(oldName)) continue;
        writeFileSync(path.join(out, other), text.split(oldName).join(newName));
        changed.add(other);
        if (HASHED.test(other) && !renamed.has(other)) next.push(other);
      }
    }
    pending = next;
  }
  for (const file of changed) {
    const bytes = readFileSync(path.join(out, file));
    writeFileSync(path.join(out, `${file}.br`), zlib.brotliCompressSync(bytes));
    writeFileSync(path.join(out, `${file}.gz`), zlib.gzipSync(bytes));
  }
  return edited;
}
