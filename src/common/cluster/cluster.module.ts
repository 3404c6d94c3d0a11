import { Global, Module } from '@nestjs/common';
import { CacheBus } from './cache-bus.js';
import { ReadReplicas, ReplicaReadsInterceptor } from '../../database/read-replicas.js';

/** Running as many instances (issue 10): the cache-invalidation bus and the read replicas. */
@Global()
@Module({ providers: [CacheBus, ReadReplicas, ReplicaReadsInterceptor], exports: [CacheBus, ReadReplicas, ReplicaReadsInterceptor] })
export class ClusterModule {}
