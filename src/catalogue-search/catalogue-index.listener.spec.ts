import type { QueryRunner } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { transactionSubscriber } from '../database/transaction-listeners.js';
import { CatalogueSearch, TransactionListener } from '../extensions/index.js';
import { CatalogueIndexCommits } from './catalogue-index-commits.js';
import { CatalogueIndexService } from './catalogue-index.service.js';
import type { CatalogueIndexSource } from './catalogue-index.source.js';
import { ProductJsonCache } from './product-json-cache.js';

/**
 * The index's after-commit hook, as a `TransactionListener` (found by `Extensions` as an instance of the point, called
 * by the one TypeORM bridge): a change written inside a transaction makes the reads wait only once the outermost
 * transaction commits, not at a savepoint's release.
 */
describe('CatalogueIndexService: the CatalogueSearch point, its commits through CatalogueIndexCommits (a TransactionListener)', () => {
  function setup() {
    const service = new CatalogueIndexService({} as CatalogueIndexSource, new ProductJsonCache());
    const awaited: Array<[string, number]> = [];
    (service as unknown as { awaitChange: (t: string, id: number) => void }).awaitChange = (t, id) => awaited.push([t, id]);
    const runner = { isTransactionActive: true } as QueryRunner;
    const ctx = { manager: { queryRunner: runner } } as unknown as RequestContext;
    const listener = new CatalogueIndexCommits(service);
    const bridge = transactionSubscriber(() => [listener]);
    const commit = () => bridge.afterTransactionCommit!({ queryRunner: runner } as never);
    return { service, listener, awaited, runner, ctx, commit };
  }

  it('implements both extension points, so Extensions finds the engine and the bridge calls its hook', () => {
    const { service, listener } = setup();
    expect(service).toBeInstanceOf(CatalogueSearch);
    expect(listener).toBeInstanceOf(TransactionListener);
  });

  it('waits for the transaction’s changes at its commit, not at a savepoint’s release, and once', () => {
    const { service, awaited, runner, ctx, commit } = setup();
    service.changed(ctx, 't1', 7);
    service.changed(ctx, 't2', 8);
    void commit(); // a savepoint released: the transaction goes on
    expect(awaited).toEqual([]);
    (runner as { isTransactionActive: boolean }).isTransactionActive = false;
    void commit();
    expect(awaited).toEqual([
      ['t1', 7],
      ['t2', 8],
    ]);
    void commit();
    expect(awaited).toHaveLength(2);
  });

  it('outside a transaction, waits at once', () => {
    const { service, awaited } = setup();
    service.changed({ manager: null } as unknown as RequestContext, 't1', 3);
    expect(awaited).toEqual([['t1', 3]]);
  });
});
