import { Module } from '@nestjs/common';
import { AdminCollectionsController } from './admin-collections.controller.js';
import { CollectionsService } from './collections.service.js';

@Module({
  controllers: [AdminCollectionsController],
  providers: [CollectionsService],
  exports: [CollectionsService],
})
export class CollectionsModule {}
