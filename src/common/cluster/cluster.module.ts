import { Global, Module } from '@nestjs/common';
import { CacheBus } from './cache-bus.js';

/**
 * Running as many instances (issue 10): the cache-invalidation bus. The read replicas are database/'s
 * `ReadReplicasModule` (common/ imports nothing above it).
 */
@Global()
@Module({ providers: [CacheBus], exports: [CacheBus] })
export class ClusterModule {}
