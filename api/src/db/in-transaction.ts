import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** A write that belongs to another one: run with the transaction storing that change, so both are stored or neither. */
export type InTransaction = (trx: Kysely<Database>) => Promise<void>;

/**
 * Where a service tells of its changes (outgoing webhooks' outbox): what to write with the change, in its transaction
 * (a crash cannot keep the change and lose its event), and a call once the change is committed.
 */
export interface ChangeEvents<E> {
  inTransaction(event: E): InTransaction;
  committed(): void;
}
