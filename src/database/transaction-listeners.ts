import { Global, Injectable, Module } from '@nestjs/common';
import { DataSource, type EntitySubscriberInterface, type QueryRunner } from 'typeorm';
import { Extensions, TransactionListener } from '../extensions/index.js';

/**
 * TypeORM's transaction events, handed to `listeners()` (read at each event, so the list is complete once the app has
 * started). Each hook's promise is returned to TypeORM, which waits for it (the outbox is written before the commit).
 */
export function transactionSubscriber(listeners: () => readonly TransactionListener[]): EntitySubscriberInterface {
  type Hook = 'beforeTransactionCommit' | 'afterTransactionCommit' | 'afterTransactionRollback';
  const each = (hook: Hook, { queryRunner }: { queryRunner: QueryRunner }): Promise<unknown> | undefined => {
    const pending: Array<Promise<void>> = [];
    for (const listener of listeners()) {
      const done = listener[hook]?.(queryRunner);
      if (done) pending.push(done);
    }
    return pending.length === 0 ? undefined : pending.length === 1 ? pending[0] : Promise.all(pending);
  };
  return {
    beforeTransactionCommit: (event) => each('beforeTransactionCommit', event),
    afterTransactionCommit: (event) => each('afterTransactionCommit', event),
    afterTransactionRollback: (event) => each('afterTransactionRollback', event),
  };
}

/**
 * The one subscriber of the data source that runs every `TransactionListener` (an extension point, implemented by a
 * module's provider like any other). Registered when built, before any transaction of the app (TypeORM takes
 * subscribers only as classes it builds itself, outside Nest's injection, hence this single push).
 */
@Injectable()
export class TransactionListeners {
  constructor(dataSource: DataSource, extensions: Extensions) {
    dataSource.subscribers.push(transactionSubscriber(() => extensions.all(TransactionListener)));
  }
}

/** Global: the bridge exists once per app, whichever modules implement `TransactionListener`. */
@Global()
@Module({ providers: [TransactionListeners] })
export class TransactionListenersModule {}
