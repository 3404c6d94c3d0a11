import { describe, expect, it } from '@jest/globals';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource, type EntitySubscriberInterface, type QueryRunner } from 'typeorm';
import { ExtensionsModule, TransactionListener } from '../extensions/index.js';
import { TransactionListenersModule } from './transaction-listeners.js';

const calls: string[] = [];

@Injectable()
class Outbox extends TransactionListener {
  override async beforeTransactionCommit(runner: QueryRunner): Promise<void> {
    await new Promise((r) => setTimeout(r, 20));
    calls.push(`outbox before ${String((runner as unknown as { id: number }).id)}`);
  }
  override afterTransactionRollback(): void {
    calls.push('outbox rollback');
  }
}

@Injectable()
class Index extends TransactionListener {
  override afterTransactionCommit(): void {
    calls.push('index after');
  }
}

/** Has the hook's name but is no TransactionListener: never called. */
@Injectable()
class Bystander {
  afterTransactionCommit(): void {
    calls.push('bystander');
  }
}

/** The data source, global as TypeORM's module makes it: only its subscriber list. */
@Module({})
class FakeDatabaseModule {
  static of(subscribers: EntitySubscriberInterface[]): DynamicModule {
    return { module: FakeDatabaseModule, global: true, providers: [{ provide: DataSource, useValue: { subscribers } }], exports: [DataSource] };
  }
}

@Module({ providers: [Outbox] })
class OutboxModule {}

@Module({ providers: [Index, Bystander] })
class IndexModule {}

describe('TransactionListeners (the data source faked)', () => {
  it("registers one subscriber that runs every TransactionListener's hooks, in module order, and waits for them", async () => {
    const subscribers: EntitySubscriberInterface[] = [];
    const moduleRef = await Test.createTestingModule({
      imports: [FakeDatabaseModule.of(subscribers), ExtensionsModule, TransactionListenersModule, OutboxModule, IndexModule],
    }).compile();
    await moduleRef.init();
    expect(subscribers).toHaveLength(1);
    const [bridge] = subscribers;
    const runner = { id: 7 } as unknown as QueryRunner;
    const before = bridge.beforeTransactionCommit!({ queryRunner: runner } as never);
    expect(calls).toEqual([]); // the outbox is still writing: the commit must wait
    await before;
    expect(calls).toEqual(['outbox before 7']);
    await bridge.afterTransactionCommit!({ queryRunner: runner } as never);
    await bridge.afterTransactionRollback!({ queryRunner: runner } as never);
    expect(calls).toEqual(['outbox before 7', 'index after', 'outbox rollback']);
    await moduleRef.close();
  });
});
