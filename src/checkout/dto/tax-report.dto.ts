import { ApiProperty } from '@nestjs/swagger';

export class TaxReportRowDto {
  /** ISO country of the shipping address (billing when nothing shipped); `??` when neither has one. */
  country: string;
  currency: string;
  /** Percent; excise of lines at this rate is reported on the same row. */
  rate: number;
  /** Net base: the lines (and shipping) at this rate less the discount share and the tax, less refunds pro rata. */
  taxable_amount: number;
  tax_amount: number;
  excise_amount: number;
  /** Orders contributing to the row. */
  orders: number;
}

export class TaxReportDto {
  from: string;
  to: string;
  @ApiProperty({ type: () => [TaxReportRowDto] })
  rows: TaxReportRowDto[];
}
