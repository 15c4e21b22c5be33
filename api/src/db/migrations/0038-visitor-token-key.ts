import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from './migration';

/*
 * The key that signs what the server gives a visitor (issue 51): the canary bucket cookie and the page-view tokens
 * browsers' release reports must carry (site/releases/visitor-tokens.ts). Drawn once, here, so every instance of one
 * database signs and checks with the same key; a configured PREVIEW_SECRET takes its place (app.ts).
 */
export const visitorTokenKeyMigration: Migration = {
  name: '0038-visitor-token-key',
  async up(db: Kysely<any>) {
    await db.insertInto('contact_settings').values({ key: 'visitor_token_key', value: randomBytes(32).toString('hex') }).execute();
  },
  async down(db: Kysely<any>) {
    await db.deleteFrom('contact_settings').where('key', '=', 'visitor_token_key').execute();
  },
};
