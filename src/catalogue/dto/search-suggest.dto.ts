import { ApiProperty } from '@nestjs/swagger';

/** Shapes of `GET /search/suggest` (issue 35), as examples/storefront/src/api/search.ts declares them. */

export class SuggestionFilterDto {
  /**
   * The listing parameter that selects it: `vendor`, `category_id`, `color_id`, `size_id`, `year_id`, `country_id`,
   * `region_id`, or `custom_field:<field key>` for a custom-field option (filtered through `custom_field_id`).
   */
  param: string;
  /** The value to pass (the id). */
  value: string;
}

export class SuggestionDto {
  id: string;
  /** Label in the active language. */
  label: string;
  /** Visible products it leads to (1 for a product). */
  count: number;
  @ApiProperty({
    type: () => SuggestionFilterDto,
    required: false,
    description: 'Producers, facet values, options and categories: the listing parameter and value that select it.',
  })
  filter?: SuggestionFilterDto;
  @ApiProperty({ type: String, nullable: true, required: false, description: 'Products and collections: their handle.' })
  handle?: string | null;
}

export class SuggestionGroupDto {
  /** `product`, `producer`, a facet kind (`color`, `size`, `year`, `country`, `region`, a custom field's key such as `grape`), `category`, `collection`. */
  kind: string;
  /** The kind's name in the active language ("Grape"). */
  label: string;
  @ApiProperty({ type: () => [SuggestionDto] })
  items: SuggestionDto[];
}

export class SuggestResponseDto {
  @ApiProperty({ type: () => [SuggestionGroupDto] })
  data: SuggestionGroupDto[];
}
