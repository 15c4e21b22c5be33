import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where variant files live. Names are content-addressed (the upload's hash), so a name once written never changes:
 * `put` of a stored name may do nothing. One instance: DATA_DIR/media. Several: the database (PostgreSQL bytea), so
 * any instance serves any file.
 */
export interface MediaStore {
  readonly kind: 'files' | 'database';
  put(name: string, content: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | undefined>;
  remove(names: readonly string[]): Promise<void>;
}

/**
 * Files in a folder (DATA_DIR/media), each written to a temp name, flushed to the disk and renamed, so a reader never
 * sees half a file, even after a crash or a full disk; a write that fails removes its temp file.
 */
export function createFileMediaStore(dir: string): MediaStore {
  // Made on the first upload, private like the rest of DATA_DIR (db/database.ts); the server alone reads it.
  let ready: Promise<unknown> | undefined;
  return {
    kind: 'files',
    async put(name, content) {
      // A failed mkdir (a full disk) is tried again by the next upload, not remembered.
      ready ??= mkdir(dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      await ready;
      const temp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      try {
        const file = await open(temp, 'wx', 0o600);
        try {
          await file.writeFile(content);
          // On the disk before it gets its name: a crash after the rename cannot leave the name holding a hole.
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temp, path.join(dir, name));
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
    },
    async get(name) {
      try {
        return await readFile(path.join(dir, path.basename(name)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async remove(names) {
      await Promise.all(names.map((name) => rm(path.join(dir, path.basename(name)), { force: true })));
    },
  };
}
