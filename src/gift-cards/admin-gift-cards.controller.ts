import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { Envelope } from '../common/http/envelope.js';
import { UuidParam } from '../common/http/uuid-param.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { Page } from '../common/paging/page.js';
import { PageQueryDto } from '../common/paging/page-query.dto.js';
import { ListParams } from '../common/paging/list-params.js';
import { Pager } from '../common/paging/pager.service.js';
import {
  BalanceAdjustmentDto,
  BalanceTransactionDto,
  CreateGiftCardDto,
  CreatedGiftCardDto,
  GiftCardDto,
  StoreCreditDto,
  UpdateGiftCardDto,
} from './dto/gift-card.dto.js';
import { GiftCardsService } from './gift-cards.service.js';
import { GiftCardsTransfer } from './gift-cards-transfer.js';
import {
  GiftCardExportDto,
  GiftCardImportDto,
  GiftCardImportResultDto,
  StoreCreditExportDto,
  StoreCreditImportDto,
  StoreCreditImportResultDto,
} from './dto/gift-card-transfer.dto.js';

const READ = { tier: 'admin' as const, scope: 'Shop/gift_cards/read' };
const WRITE = { tier: 'admin' as const, scope: 'Shop/gift_cards/write' };

/** Gift cards for staff (issue 33): the code is shown once, on creation; every change is a ledger row. */
@ApiTags('admin: gift cards')
@Controller('admin/gift_cards')
export class AdminGiftCardsController {
  constructor(
    private readonly cards: GiftCardsService,
    private readonly pager: Pager,
    private readonly transfer: GiftCardsTransfer,
  ) {}

  /** Newest first, cursored; disabled cards included. */
  @Get()
  @Auth(READ)
  @Envelope('gift_cards', [GiftCardDto])
  list(@Ctx() ctx: RequestContext, @ListParams() list: ListParams, @Query() _query: PageQueryDto): Promise<Page<GiftCardDto>> {
    return this.cards.list(ctx, this.pager.request(list, 'admin.gift_cards'));
  }

  /** A card with its initial value as an `issue` row; the answer's `code` is its only disclosure. */
  @Post()
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('gift_card', CreatedGiftCardDto, 201)
  create(@Ctx() ctx: RequestContext, @Body() dto: CreateGiftCardDto): Promise<CreatedGiftCardDto> {
    return this.cards.create(ctx, dto);
  }

  /** Every card with its ledger; codes only as their keyed hashes. */
  @Get('export')
  @Auth(READ)
  @Envelope('gift_cards', [GiftCardExportDto])
  export(@Ctx() ctx: RequestContext): Promise<GiftCardExportDto[]> {
    return this.transfer.export(ctx);
  }

  /** Cards of an export (same APP_SECRET), created with their ledger; a hash the shop holds is left unchanged. */
  @Post('import')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('import', GiftCardImportResultDto)
  import(@Ctx() ctx: RequestContext, @Body() dto: GiftCardImportDto): Promise<GiftCardImportResultDto> {
    return this.transfer.import(ctx, dto);
  }

  @Get(':id')
  @Auth(READ)
  @Envelope('gift_card', GiftCardDto)
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<GiftCardDto> {
    return this.cards.get(ctx, id);
  }

  /** note, expires_at, customer_id, disabled; only supplied members change. */
  @Put(':id')
  @Auth(WRITE)
  @Envelope('gift_card', GiftCardDto)
  update(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: UpdateGiftCardDto): Promise<GiftCardDto> {
    return this.cards.update(ctx, id, dto);
  }

  /** Disables the card; what is left on it expires. 404 when already deleted. */
  @Delete(':id')
  @HttpCode(204)
  @Auth(WRITE)
  async remove(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<void> {
    await this.cards.remove(ctx, id);
  }

  /** The card's ledger, oldest first: issue, redeem, refund, expire and adjust rows; they sum to the balance. */
  @Get(':id/transactions')
  @Auth(READ)
  @Envelope('transactions', [BalanceTransactionDto])
  history(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<BalanceTransactionDto[]> {
    return this.cards.history(ctx, id);
  }

  /** Adds (positive) or takes off (negative) value, never below zero. */
  @Post(':id/adjustments')
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('gift_card', GiftCardDto, 201)
  @ApiErrors({ 422: ['balance_insufficient'] })
  adjust(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: BalanceAdjustmentDto): Promise<GiftCardDto> {
    return this.cards.adjust(ctx, id, dto);
  }
}

/** A customer's store credit for staff (issue 33): one balance per currency on the same ledger as gift cards. */
@ApiTags('admin: gift cards')
@Controller('admin/customers/:id/store_credit')
export class AdminStoreCreditController {
  constructor(private readonly cards: GiftCardsService) {}

  @Get()
  @Auth(READ)
  @Envelope('store_credit', [StoreCreditDto])
  get(@Ctx() ctx: RequestContext, @UuidParam('id') id: string): Promise<StoreCreditDto[]> {
    return this.cards.storeCredit(ctx, id);
  }

  /** Issues (positive) or takes off (negative) credit in `currency` (default: the shop's), never below zero. */
  @Post()
  @HttpCode(201)
  @Auth(WRITE)
  @Envelope('store_credit', [StoreCreditDto], 201)
  @ApiErrors({ 422: ['balance_insufficient'] })
  adjust(@Ctx() ctx: RequestContext, @UuidParam('id') id: string, @Body() dto: BalanceAdjustmentDto): Promise<StoreCreditDto[]> {
    return this.cards.adjustStoreCredit(ctx, id, dto);
  }
}

/** Every customer's store credit moved between shops (issue 33): customers are matched by e-mail. */
@ApiTags('admin: gift cards')
@Controller('admin/store_credit')
export class AdminStoreCreditTransferController {
  constructor(private readonly transfer: GiftCardsTransfer) {}

  /** Each customer's credit per currency with its ledger, by customer e-mail. */
  @Get('export')
  @Auth(READ)
  @Envelope('store_credit', [StoreCreditExportDto])
  export(@Ctx() ctx: RequestContext): Promise<StoreCreditExportDto[]> {
    return this.transfer.exportStoreCredit(ctx);
  }

  /** The export's accounts, created with their ledger for customers (by e-mail) without credit in that currency. */
  @Post('import')
  @HttpCode(200)
  @Auth(WRITE)
  @Envelope('import', StoreCreditImportResultDto)
  import(@Ctx() ctx: RequestContext, @Body() dto: StoreCreditImportDto): Promise<StoreCreditImportResultDto> {
    return this.transfer.importStoreCredit(ctx, dto);
  }
}
