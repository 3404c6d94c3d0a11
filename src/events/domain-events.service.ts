import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { DataSource, QueryRunner } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction } from '../common/db/tenant-scope.js';
import { SpanKind } from '@opentelemetry/api';
import { inSpanSync, traceCarrier } from '../observability/index.js';

const traceCarrierJson = (requestId: string): string | null => {
  const carrier = traceCarrier(requestId);
  return carrier ? JSON.stringify(carrier) : null;
};
import type { DomainEvent, DomainEventHandler } from './domain-event.js';
import { OutboxCommitListener, TransactionListener, type OutboxWork } from '../extensions/index.js';
import { OutboxSink } from './outbox-sink.js';
import { Extensions } from '../extensions/index.js';
import type { DomainEventMap } from './event-map.js';
import { EventTopic, isEventTopic } from './event-topics.js';
import { EventsRepository } from './events.repository.js';
import { ON_DOMAIN_EVENT } from './on-domain-event.decorator.js';
import { depthOf, outboxParts, outboxStatement, timeOrderedUuid, type OutboxParts, type PendingEvent } from './repositories/outbox-statement.js';

export interface RegisteredHandler {
  /** Durable name: pending work is keyed by it, so it must not change between releases. */
  name: string;
  topic: EventTopic | '*';
  fn: DomainEventHandler;
}

/**
 * Domain events through a transactional outbox.
 *
 * `emit(ctx, topic, payload)` runs in the caller's open transaction (`ctx.manager`; a fresh one when none is open)
 * and writes, atomically with the caller's change: the `outbox_events` row, one `event_handler_jobs` row per
 * in-process handler of the topic, and whatever the sinks add (one `webhook_deliveries` row per active
 * subscription). All events of a transaction are written in one statement just before its outermost commit
 * (issue 34), in the order they were emitted (time-ordered ids); a rolled-back change (or savepoint) therefore
 * leaves no event and no work. After the outermost commit the workers are kicked, so delivery is prompt; polling
 * picks up anything a crash or another instance left behind. The commit and rollback hooks are those of a
 * `TransactionListener` (an extension point; src/database/transaction-listeners.ts calls them).
 */
@Injectable()
export class DomainEvents extends TransactionListener implements OnModuleInit {
  private readonly logger = new Logger('DomainEvents');
  private readonly handlers = new Map<string, RegisteredHandler>();
  /** Transactions (by query runner) that recorded events and have not finished yet. */
  private readonly pending = new WeakSet<QueryRunner>();
  /** The events of open transactions (by query runner), not yet written: `write` does before the commit. */
  private readonly unwritten = new WeakMap<QueryRunner, Array<PendingEvent<DomainEvent>>>();
  /** What the open transactions' written events left to do (by query runner), told to the listeners after the commit. */
  private readonly work = new WeakMap<QueryRunner, OutboxWork>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly extensions: Extensions,
    private readonly repo: EventsRepository,
  ) {
    super();
  }

  /** Writes the transaction's events just before it commits (see `write`). */
  override beforeTransactionCommit(runner: QueryRunner): Promise<void> {
    return this.write(runner);
  }

  override afterTransactionCommit(runner: QueryRunner): void {
    this.finished(runner, true);
  }

  override afterTransactionRollback(runner: QueryRunner): void {
    this.discard(runner);
    this.finished(runner, false);
  }

  /** Finds `@OnDomainEvent` methods on every provider and controller. */
  onModuleInit(): void {
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance = wrapper.instance as Record<string, unknown> | null | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const proto = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const fn = instance[method];
        if (typeof fn !== 'function') continue;
        const topic = Reflect.getMetadata(ON_DOMAIN_EVENT, fn) as EventTopic | '*' | undefined;
        if (!topic) continue;
        this.subscribe(topic, (fn as DomainEventHandler).bind(instance), { name: `${instance.constructor.name}.${method}` });
      }
    }
  }

  /**
   * Registers an in-process handler for a topic or `'*'`. Register at start-up (a module's constructor or
   * onModuleInit): events recorded before a handler exists are not replayed to it. Returns an unsubscribe function.
   */
  subscribe<T extends EventTopic>(topic: T | '*', fn: DomainEventHandler<T>, options: { name?: string } = {}): () => void {
    if (topic !== '*' && !isEventTopic(topic)) throw new Error(`unknown domain event topic "${String(topic)}"`);
    const name = options.name ?? (fn.name && fn.name !== 'anonymous' ? `${fn.name}@${topic}` : null);
    if (!name) throw new Error('subscribe: give the handler a stable name ({name})');
    if (this.handlers.has(name)) throw new Error(`a domain event handler named "${name}" is already registered`);
    this.handlers.set(name, { name, topic, fn: fn as DomainEventHandler });
    return () => void this.handlers.delete(name);
  }

  handler(name: string): RegisteredHandler | undefined {
    return this.handlers.get(name);
  }

  handlerNames(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Records an event in the caller's transaction; see the class comment. The payload is the topic's `DomainEventMap`
   * entry. `fill`: a path in the payload whose value the transaction computes later, in the statement that writes its
   * events (`writeWith`: the order placement's number, issue 34).
   */
  async emit<T extends EventTopic>(ctx: RequestContext, topic: T, payload: DomainEventMap[T], options: { fill?: string[] } = {}): Promise<DomainEvent<T>> {
    if (!isEventTopic(topic)) throw new Error(`unknown domain event topic "${String(topic)}"`);
    const open = ctx.manager?.queryRunner?.isTransactionActive ? ctx.manager : null;
    if (!open) {
      if (options.fill) throw new Error('an event with a fill path is emitted inside the transaction that computes it');
      return inTransaction(ctx, this.dataSource, (tx) => this.emit(tx, topic, payload));
    }
    const runner = open.queryRunner!;
    // the event carries the trace of the request that caused it: its handlers and webhook deliveries continue it
    const event = inSpanSync(
      `outbox.emit ${topic}`,
      { 'tenant.id': ctx.tenantId, 'request.id': ctx.requestId, 'event.topic': topic },
      (span) => {
        const recorded: PendingEvent<DomainEvent> = {
          id: timeOrderedUuid(),
          tenantId: ctx.tenantId,
          topic,
          // the payload as it is now: the caller may change its objects before the transaction commits
          payload: JSON.stringify(payload),
          trace: traceCarrierJson(ctx.requestId),
          handlers: [...this.handlers.values()].filter((h) => h.topic === topic || h.topic === '*').map((h) => h.name),
          depth: depthOf(runner),
          fill: options.fill ?? null,
        };
        span.setAttribute('event.id', recorded.id);
        return recorded;
      },
      SpanKind.PRODUCER,
    );
    // written with the transaction's other events in one statement just before it commits (issue 34)
    const queue = this.unwritten.get(runner) ?? [];
    queue.push(event);
    this.unwritten.set(runner, queue);
    this.pending.add(runner);
    // occurredAt: now, until the commit writes the row; then the row's (what handlers and deliveries are given)
    event.recorded = { id: event.id, tenantId: ctx.tenantId, topic, payload, occurredAt: new Date() } as DomainEvent;
    return event.recorded as DomainEvent<T>;
  }

  /**
   * Before the outermost commit: the transaction's events, their handlers' jobs and every `OutboxSink`'s work (the
   * webhooks module: its deliveries) in ONE statement. A savepoint's release keeps its events for the outer level.
   */
  private async write(runner: QueryRunner | undefined): Promise<void> {
    const queue = runner && this.unwritten.get(runner);
    if (!runner || !queue) return;
    const depth = depthOf(runner);
    if (depth > 1) {
      for (const e of queue) if (e.depth >= depth) e.depth = depth - 1;
      return;
    }
    this.unwritten.delete(runner);
    if (queue.length === 0) return;
    const { sql, parameters, jobs } = outboxStatement(
      queue,
      this.extensions.all(OutboxSink).map((sink) => sink.record('ev')),
    );
    const rows = await this.repo.writeOutbox(runner, sql, parameters);
    // a count the statement did not give (a faked repository): as if rows were written
    this.wrote(runner, { jobs, sinkRows: rows[0]?.sink_rows === undefined || Number(rows[0].sink_rows) > 0 });
    const at = new Map(rows.map((r) => [r.id, r.occurred_at]));
    for (const e of queue) if (e.recorded && at.has(e.id)) e.recorded.occurredAt = at.get(e.id)!;
  }

  /**
   * The transaction's events so far written by the caller's own statement rather than by one more statement before
   * the commit (issue 34: the order placement writes them with the order, so the shop's counter, locked from that
   * statement to the commit, waits for one round trip less). `write` is given the outbox's `WITH` parts (parameters
   * from `$offset + 1`; each event's `fill` path set to `fillValue`, a SQL expression of that statement) or null when
   * none are due (no event, or a savepoint: they stay for the outer commit), and returns its result and the rows
   * `written` returned. `filled(result)` is the computed value in JavaScript, for the events left to the commit.
   */
  async writeWith<R>(
    ctx: RequestContext,
    at: { offset: number; fillValue: string },
    write: (outbox: OutboxParts | null) => Promise<{ result: R; written: Array<{ id: string; occurred_at: Date | string }>; sinkRows: number }>,
    filled: (result: R) => string,
  ): Promise<R> {
    const runner = ctx.manager?.queryRunner;
    const queue = runner?.isTransactionActive ? this.unwritten.get(runner) : undefined;
    const own = runner && queue && queue.length > 0 && depthOf(runner) === 1 ? queue : null;
    if (own) this.unwritten.set(runner!, []);
    const sinks = this.extensions.all(OutboxSink).map((sink) => sink.record('ev'));
    let out;
    try {
      out = await write(own ? outboxParts(own, sinks, at) : null);
    } catch (err) {
      if (own) this.unwritten.set(runner!, [...own, ...(this.unwritten.get(runner!) ?? [])]);
      throw err;
    }
    if (own) this.wrote(runner!, { jobs: own.some((e) => e.handlers.length > 0), sinkRows: out.sinkRows > 0 });
    const at2 = new Map(out.written.map((r) => [r.id, new Date(r.occurred_at)]));
    if (own) for (const e of own) if (e.recorded && at2.has(e.id)) e.recorded.occurredAt = at2.get(e.id)!;
    // the events not written by it (emitted in a savepoint, or after): their paths filled here, written at the commit
    for (const e of (runner && this.unwritten.get(runner)) ?? []) {
      if (!e.fill?.length) continue;
      e.payload = JSON.stringify(setPath(JSON.parse(e.payload) as Record<string, unknown>, e.fill, filled(out.result)));
      e.fill = null;
    }
    return out.result;
  }

  /** A rolled-back savepoint (or transaction) takes the events emitted inside it along. */
  private discard(runner: QueryRunner | undefined): void {
    const queue = runner && this.unwritten.get(runner);
    if (!runner || !queue) return;
    const depth = depthOf(runner);
    const kept = queue.filter((e) => e.depth <= depth);
    if (depth === 0 || kept.length === 0) this.unwritten.delete(runner);
    else this.unwritten.set(runner, kept);
  }

  private wrote(runner: QueryRunner, work: OutboxWork): void {
    const was = this.work.get(runner);
    this.work.set(runner, { jobs: work.jobs || !!was?.jobs, sinkRows: work.sinkRows || !!was?.sinkRows });
  }

  private finished(queryRunner: QueryRunner | undefined, committed: boolean): void {
    // nested transactions (savepoints) broadcast too: only the outermost end counts
    if (!queryRunner || queryRunner.isTransactionActive || !this.pending.has(queryRunner)) return;
    this.pending.delete(queryRunner);
    const work = this.work.get(queryRunner);
    this.work.delete(queryRunner);
    // only the workers with new rows are woken (issue 34: a shop without handlers or subscriptions wakes none)
    if (committed && work && (work.jobs || work.sinkRows)) this.notifyCommitted(work);
  }

  private notifyCommitted(work: OutboxWork): void {
    for (const listener of this.extensions.all(OutboxCommitListener)) {
      try {
        listener.outboxCommitted(work);
      } catch (err) {
        this.logger.error(`after-commit listener failed: ${(err as Error).message}`);
      }
    }
  }
}

function setPath(payload: Record<string, unknown>, path: string[], value: string): Record<string, unknown> {
  let at = payload;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]] = value;
  return payload;
}
