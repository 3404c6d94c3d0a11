import { Injectable } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { TransactionListener } from '../extensions/index.js';
import { CatalogueIndexService } from './catalogue-index.service.js';

/**
 * The engine's after-commit hook as a `TransactionListener` (found by `Extensions` as an instance of the point, called
 * by the one TypeORM bridge). A provider of its own: the engine itself is the `CatalogueSearch` point's implementation.
 */
@Injectable()
export class CatalogueIndexCommits extends TransactionListener {
  constructor(private readonly index: CatalogueIndexService) {
    super();
  }

  override afterTransactionCommit(qr: QueryRunner): void {
    this.index.transactionCommitted(qr);
  }
}
