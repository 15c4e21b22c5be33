import { eventsMigration } from './0001-events';
import type { Migration } from './migration';

/** Every migration, oldest first. A static list, so the esbuild bundle needs no directory scan. */
export const migrations: readonly Migration[] = [eventsMigration];
