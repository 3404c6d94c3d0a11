import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { AdjustInventoryLevelDto, InventoryLevelDto, SetInventoryLevelDto } from './dto/inventory-level.dto.js';
import { InventoryService } from './inventory.service.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';

/** SPEC "Admin: inventory levels". */
@ApiTags('admin: inventory levels')
@Controller('admin/inventory_levels')
export class AdminInventoryController {
  constructor(private readonly inventory: InventoryService) {}

  /** One row per stocked (item, location) pair; not padded per requested id; unparseable ids dropped. */
  @Get()
  @Auth({ tier: 'admin', scope: 'Shop/inventory/read' })
  @ApiQuery({ name: 'inventory_item_ids', required: true, description: 'comma-separated variant ids, at most 250' })
  @ApiQuery({ name: 'location_ids', required: false, description: 'comma-separated location ids' })
  @Envelope('inventory_levels', [InventoryLevelDto])
  list(@Ctx() ctx: RequestContext, @Query('inventory_item_ids') itemIds: unknown, @Query('location_ids') locationIds: unknown): Promise<InventoryLevelDto[]> {
    return this.inventory.list(ctx, itemIds, locationIds);
  }

  /** Sets the absolute on-hand (a ledger movement of the difference). */
  @Post('set')
  @HttpCode(200)
  @Auth({ tier: 'admin', scope: 'Shop/inventory/write' })
  @Envelope('inventory_level', InventoryLevelDto)
  @ApiErrors({ 404: [] })
  set(@Ctx() ctx: RequestContext, @Body() dto: SetInventoryLevelDto): Promise<InventoryLevelDto> {
    return this.inventory.set(ctx, dto.inventory_item_id, dto.location_id, dto.available);
  }

  /** Adds a delta to the on-hand and returns the resulting level. */
  @Post('adjust')
  @HttpCode(200)
  @Auth({ tier: 'admin', scope: 'Shop/inventory/write' })
  @Envelope('inventory_level', InventoryLevelDto)
  @ApiErrors({ 404: [] })
  adjust(@Ctx() ctx: RequestContext, @Body() dto: AdjustInventoryLevelDto): Promise<InventoryLevelDto> {
    return this.inventory.adjust(ctx, dto.inventory_item_id, dto.location_id, dto.available_adjustment);
  }
}
