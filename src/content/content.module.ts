import { Module } from '@nestjs/common';
import { AdminContentController } from './admin-content.controller.js';
import { ContentRepository } from './content.repository.js';
import { ContentService } from './content.service.js';

@Module({
  controllers: [AdminContentController],
  providers: [ContentService, ContentRepository],
  exports: [ContentService],
})
export class ContentModule {}
