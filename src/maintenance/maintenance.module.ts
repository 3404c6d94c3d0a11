import { Module } from '@nestjs/common';
import { CleanupService } from './cleanup.service.js';

/** Housekeeping jobs that run on one instance at a time (issue 13: cleanup of expired and old rows). */
@Module({ providers: [CleanupService], exports: [CleanupService] })
export class MaintenanceModule {}
