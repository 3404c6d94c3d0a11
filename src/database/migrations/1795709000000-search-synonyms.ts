import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search synonyms per shop (issue 35): the `search_synonyms` table, its cache-bus trigger (every write, by any path,
 * tells every instance at commit, topic `search_synonyms`, as ReadPathNotify1795707000000 does for its tables) and
 * the shipped wine defaults seeded for every shop that exists now (a frozen copy, in normal form, of
 * src/search-synonyms/data/wine-synonyms.ts as it was written with this migration); new shops get the data file's
 * rules when they are created.
 */
export class SearchSynonyms1795709000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE search_synonyms (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text,
        kind text NOT NULL CHECK (kind IN ('two_way', 'one_way')),
        terms text[] NOT NULL,
        synonyms text[] NOT NULL DEFAULT '{}',
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3),
        PRIMARY KEY (tenant_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX search_synonyms_tenant_key_key ON search_synonyms (tenant_id, key) WHERE key IS NOT NULL`);
    await q.query(`CREATE INDEX search_synonyms_tenant_created_idx ON search_synonyms (tenant_id, created_at, id)`);
    await q.query(`CREATE TRIGGER search_synonyms_read_notify AFTER INSERT OR UPDATE OR DELETE ON search_synonyms
      FOR EACH ROW EXECUTE FUNCTION tenant_rows_changed('search_synonyms')`);
    await q.query(`CREATE TRIGGER search_synonyms_read_notify_truncate AFTER TRUNCATE ON search_synonyms
      FOR EACH STATEMENT EXECUTE FUNCTION tenant_rows_changed('search_synonyms')`);
    // one statement per rule, a millisecond apart, so each shop lists the defaults in the file's order
    for (const [i, [key, kind, terms, synonyms]] of DEFAULTS.entries()) {
      await q.query(
        `INSERT INTO search_synonyms (tenant_id, key, kind, terms, synonyms, created_at)
         SELECT id, $1, $2, $3::text[], $4::text[], now() + $5 * interval '1 millisecond' FROM tenants`,
        [key, kind, terms, synonyms, i],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE search_synonyms`);
  }
}

/** [key, kind, terms, synonyms]: src/search-synonyms/data/wine-synonyms.ts of 2026-11-26, normalised (sources named there). */
const DEFAULTS: Array<[key: string, kind: string, terms: string[], synonyms: string[]]> = [
  ['default-syrah', 'two_way', ['syrah', 'shiraz'], []],
  ['default-pinot-gris', 'two_way', ['pinot gris', 'pinot grigio', 'grauburgunder', 'rulander'], []],
  ['default-pinot-noir', 'two_way', ['pinot noir', 'spatburgunder', 'pinot nero', 'blauburgunder'], []],
  ['default-pinot-blanc', 'two_way', ['pinot blanc', 'weissburgunder', 'pinot bianco'], []],
  ['default-pinot-meunier', 'two_way', ['pinot meunier', 'meunier', 'schwarzriesling'], []],
  ['default-grenache', 'two_way', ['grenache', 'garnacha', 'cannonau'], []],
  ['default-mourvedre', 'two_way', ['mourvedre', 'monastrell', 'mataro'], []],
  ['default-primitivo', 'two_way', ['primitivo', 'zinfandel'], []],
  ['default-trebbiano', 'two_way', ['trebbiano', 'ugni blanc'], []],
  ['default-vermentino', 'two_way', ['vermentino', 'rolle'], []],
  ['default-riesling', 'two_way', ['riesling', 'rheinriesling', 'riesling renano'], []],
  ['default-muller-thurgau', 'two_way', ['muller thurgau', 'rivaner'], []],
  ['default-chasselas', 'two_way', ['chasselas', 'gutedel', 'fendant'], []],
  ['default-silvaner', 'two_way', ['silvaner', 'sylvaner'], []],
  ['default-gewurztraminer', 'two_way', ['gewurztraminer', 'traminer aromatico'], []],
  ['default-blaufrankisch', 'two_way', ['blaufrankisch', 'lemberger', 'kekfrankos', 'franconia'], []],
  ['default-nebbiolo', 'two_way', ['nebbiolo', 'spanna', 'chiavennasca'], []],
  ['default-sangiovese', 'two_way', ['sangiovese', 'prugnolo gentile', 'sangioveto'], []],
  ['default-tempranillo', 'two_way', ['tempranillo', 'tinta roriz', 'aragonez', 'tinto fino'], []],
  ['default-sauvignon-blanc', 'two_way', ['sauvignon blanc', 'fume blanc', 'muskat silvaner'], []],
  ['default-carignan', 'two_way', ['carignan', 'carignano', 'mazuelo', 'carinena'], []],
  ['default-zweigelt', 'two_way', ['zweigelt', 'blauer zweigelt', 'rotburger'], []],
  ['default-muscat', 'two_way', ['muscat', 'moscato', 'muskateller', 'moscatel'], []],
  ['default-chenin-blanc', 'two_way', ['chenin blanc', 'pineau de la loire', 'steen'], []],
  ['default-malbec', 'two_way', ['malbec', 'cot noir', 'auxerrois noir'], []],
  ['default-cabernet-sauvignon', 'two_way', ['cabernet sauvignon', 'cab sauv'], []],
  ['default-gruner-veltliner', 'two_way', ['gruner veltliner', 'weissgipfler', 'gruner'], []],
  ['default-sparkling', 'two_way', ['sparkling', 'schaumwein', 'mousseux', 'spumante'], []],
  ['default-semi-sparkling', 'two_way', ['semi sparkling', 'perlwein', 'petillant', 'frizzante'], []],
  ['default-red', 'two_way', ['red', 'rot', 'rouge', 'rosso'], []],
  ['default-white', 'two_way', ['white', 'weiss', 'blanc', 'bianco'], []],
  ['default-rose', 'two_way', ['rose', 'rosato', 'rosado'], []],
  ['default-dry', 'two_way', ['dry', 'trocken', 'sec', 'secco'], []],
  ['default-sweet', 'two_way', ['sweet', 'suss', 'doux', 'dolce'], []],
  ['default-magnum', 'two_way', ['magnum', '1.5 l', '150 cl'], []],
  ['default-half-bottle', 'two_way', ['half bottle', '37.5 cl', '375 ml', 'demi bouteille'], []],
  ['default-bubbly', 'one_way', ['bubbly', 'bubbles', 'fizz'], ['sparkling', 'champagne', 'cremant', 'spumante', 'sekt', 'cava', 'prosecco', 'franciacorta']],
  [
    'default-sparkling-kinds',
    'one_way',
    ['sparkling', 'schaumwein', 'mousseux', 'spumante'],
    ['champagne', 'cremant', 'sekt', 'cava', 'prosecco', 'franciacorta'],
  ],
  [
    'default-dessert',
    'one_way',
    ['dessert wine', 'susswein', 'vin doux', 'vino dolce'],
    ['sweet', 'passito', 'late harvest', 'spatlese', 'auslese', 'beerenauslese', 'sauternes', 'vendanges tardives'],
  ],
  ['default-fortified', 'one_way', ['fortified', 'likorwein', 'vin mute', 'vino liquoroso'], ['port', 'porto', 'sherry', 'jerez', 'madeira', 'marsala']],
];
