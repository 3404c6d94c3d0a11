import type { QueryRunner } from 'typeorm';

/**
 * **Transaction listener** (several): hooks around the commit and rollback of every transaction of the data source,
 * typed, instead of an `EntitySubscriberInterface` pushed into `dataSource.subscribers` at run time. One bridge
 * (`TransactionListeners`, src/database/transaction-listeners.ts) is TypeORM's subscriber and calls every
 * implementation, in module registration order. Savepoints broadcast too (a released or rolled-back savepoint calls
 * the same hooks with the transaction still active): check `runner.isTransactionActive` for the outermost end.
 */
export abstract class TransactionListener {
  /** Just before a commit (or a savepoint's release); the commit waits for the returned promise. */
  beforeTransactionCommit?(runner: QueryRunner): Promise<void> | void;
  /** After a commit (or a savepoint's release). */
  afterTransactionCommit?(runner: QueryRunner): Promise<void> | void;
  /** After a rollback (or a rollback to a savepoint). */
  afterTransactionRollback?(runner: QueryRunner): Promise<void> | void;
}
