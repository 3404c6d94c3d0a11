import { IsInt, IsString } from 'class-validator';
import { ApiValidationPipe } from './validation.pipe.js';

class NamedDto {
  @IsString()
  name!: string;
}

class CountedDto extends NamedDto {}

describe('ApiValidationPipe', () => {
  const pipe = new ApiValidationPipe();

  it('passes a parameter whose type was erased to Function (a type-only import) through untouched', async () => {
    // `nest build` emits `Function` as the design type of `query: CollectionQuery` (a type-only import); validating
    // against it stripped every filter of the collection lists in the built server (issue 29)
    const query = { color_id: 'a', on_sale: 'true', order: 'bogus' };
    await expect(pipe.transform(query, { type: 'query', metatype: Function })).resolves.toBe(query);
  });

  it('still whitelists members of a real DTO', async () => {
    const out = (await pipe.transform({ name: 'x', extra: 1 }, { type: 'query', metatype: NamedDto })) as Record<string, unknown>;
    expect(out).toEqual({ name: 'x' });
  });

  it("checks a class's inherited rules as they are, also after a rule was added since its last check (the kept lookup is dropped)", async () => {
    // the lookup of a class's rules is kept (issue 34); a rule decorated later, here on the parent, must still count
    await expect(pipe.transform({ name: 1 }, { type: 'body', metatype: CountedDto })).rejects.toThrow(/name must be a string/);
    await expect(pipe.transform({ name: 'x', count: 'many' }, { type: 'body', metatype: CountedDto })).resolves.toEqual({ name: 'x' });
    IsInt()(NamedDto.prototype, 'count');
    await expect(pipe.transform({ name: 'x', count: 'many' }, { type: 'body', metatype: CountedDto })).rejects.toThrow(/count must be an integer/);
    await expect(pipe.transform({ name: 'x', count: 3 }, { type: 'body', metatype: CountedDto })).resolves.toEqual({ name: 'x', count: 3 });
  });
});
