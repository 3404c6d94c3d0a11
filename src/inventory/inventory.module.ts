import { Module } from '@nestjs/common';
import { CatalogueModule } from '../catalogue/catalogue.module.js';
import { AdminInventoryController } from './admin-inventory.controller.js';
import { InventoryService } from './inventory.service.js';

/** Inventory levels over the catalogue's stock ledger (issue 7). */
@Module({
  imports: [CatalogueModule],
  controllers: [AdminInventoryController],
  providers: [InventoryService],
  exports: [InventoryService],
})
export class InventoryModule {}
