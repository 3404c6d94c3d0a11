import { Global, Module } from '@nestjs/common';
import { ReadReplicas, ReplicaReadsInterceptor } from './read-replicas.js';

/** Running as many instances (issue 10): the read replicas (the cache-invalidation bus is common's `ClusterModule`). */
@Global()
@Module({ providers: [ReadReplicas, ReplicaReadsInterceptor], exports: [ReadReplicas, ReplicaReadsInterceptor] })
export class ReadReplicasModule {}
