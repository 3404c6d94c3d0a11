import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Auth } from '../common/auth/auth.decorator.js';
import { Ctx, RequestContext } from '../common/context/request-context.js';
import { managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Envelope } from '../common/http/envelope.js';
import { TaxReportDto } from './dto/tax-report.dto.js';
import { reportPeriod, taxReportCsv, taxReportRows } from './tax-report.js';

@ApiTags('admin: taxes')
@Controller('admin/reports')
export class AdminTaxReportController {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * OSS-style report: taxable amount, tax and excise by destination country, currency and rate over the paid orders
   * placed from `from` to `to` (inclusive days), less refunds. `format=csv` answers `text/csv`.
   */
  @Get('tax')
  @Auth({ tier: 'admin', scope: 'Shop/orders/read' })
  @Envelope('tax_report', TaxReportDto)
  @ApiQuery({ name: 'from', required: true, description: 'YYYY-MM-DD' })
  @ApiQuery({ name: 'to', required: true, description: 'YYYY-MM-DD' })
  @ApiQuery({ name: 'format', required: false, enum: ['json', 'csv'] })
  @ApiProduces('application/json', 'text/csv')
  async tax(
    @Ctx() ctx: RequestContext,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Query('format') format: unknown,
    @Res() res: Response,
  ): Promise<void> {
    if (format !== undefined && format !== 'json' && format !== 'csv') throw AppError.unprocessable('format must be json or csv');
    const period = reportPeriod(from, to);
    const rows = await taxReportRows(managerOf(ctx, this.dataSource), ctx.tenantId, period);
    if (format === 'csv') {
      res.status(200).type('text/csv; charset=utf-8').send(taxReportCsv(rows));
      return;
    }
    res.status(200).json({ tax_report: { ...period, rows } });
  }
}
