/**
 * The shipped default synonyms for a wine shop (issue 35): grape varieties under their names in English, German,
 * French and Italian (the demo's languages), and wine styles. Seeded for every new shop (and for the shops that
 * existed when migration SearchSynonyms1795709000000 ran), then the shop's own to edit or delete through
 * `/admin/search/synonyms`; each rule has a `key` (`default-…`), so an import or a re-seed recognises it.
 *
 * Sources: OIV, "International list of vine varieties and their synonyms" (Organisation Internationale de la Vigne et
 * du Vin, 2013 edition); the Vitis International Variety Catalogue VIVC (Julius Kühn-Institut, Geilweilerhof: the
 * prime names and synonyms of each variety); J. Robinson, J. Harding, J. Vouillamoz, "Wine Grapes" (2012); for the
 * sparkling styles, Regulation (EU) No 1308/2013 annex VII part II (categories "sparkling wine", "quality sparkling
 * wine", "aerated sparkling wine") and the protected names Champagne, Crémant, Cava, Prosecco, Franciacorta.
 * Checked: 2026-11-26, transcribed from those publications as known to the author on that date, WITHOUT online access
 * from the build machine (so not re-read that day). Only well-established synonyms are kept: a name that is also a
 * different variety elsewhere (Switzerland's "Johannisberg" is Silvaner, Austria's "Morillon" is Chardonnay but a
 * French Morillon is Pinot Noir) is left out, so the defaults never join two different grapes.
 */
export interface DefaultSynonymRule {
  key: string;
  kind: 'two_way' | 'one_way';
  terms: string[];
  synonyms: string[];
}

const twoWay = (key: string, ...terms: string[]): DefaultSynonymRule => ({ key: `default-${key}`, kind: 'two_way', terms, synonyms: [] });
const oneWay = (key: string, terms: string[], synonyms: string[]): DefaultSynonymRule => ({ key: `default-${key}`, kind: 'one_way', terms, synonyms });

export const WINE_SYNONYMS_SOURCE =
  'OIV International list of vine varieties and their synonyms (2013); VIVC (Julius Kühn-Institut); Robinson, Harding, Vouillamoz, Wine Grapes (2012); Regulation (EU) No 1308/2013 annex VII';
export const WINE_SYNONYMS_CHECKED = '2026-11-26';

/** The default rules, in the written form (the service normalises them like any other rule before storing). */
export const WINE_SYNONYMS: readonly DefaultSynonymRule[] = [
  // grapes (two-way: each name finds the others)
  twoWay('syrah', 'syrah', 'shiraz'),
  twoWay('pinot-gris', 'pinot gris', 'pinot grigio', 'grauburgunder', 'ruländer'),
  twoWay('pinot-noir', 'pinot noir', 'spätburgunder', 'pinot nero', 'blauburgunder'),
  twoWay('pinot-blanc', 'pinot blanc', 'weissburgunder', 'pinot bianco'),
  twoWay('pinot-meunier', 'pinot meunier', 'meunier', 'schwarzriesling'),
  twoWay('grenache', 'grenache', 'garnacha', 'cannonau'),
  twoWay('mourvedre', 'mourvèdre', 'monastrell', 'mataro'),
  twoWay('primitivo', 'primitivo', 'zinfandel'),
  twoWay('trebbiano', 'trebbiano', 'ugni blanc'),
  twoWay('vermentino', 'vermentino', 'rolle'),
  twoWay('riesling', 'riesling', 'rheinriesling', 'riesling renano'),
  twoWay('muller-thurgau', 'müller-thurgau', 'rivaner'),
  twoWay('chasselas', 'chasselas', 'gutedel', 'fendant'),
  twoWay('silvaner', 'silvaner', 'sylvaner'),
  twoWay('gewurztraminer', 'gewürztraminer', 'traminer aromatico'),
  twoWay('blaufrankisch', 'blaufränkisch', 'lemberger', 'kékfrankos', 'franconia'),
  twoWay('nebbiolo', 'nebbiolo', 'spanna', 'chiavennasca'),
  twoWay('sangiovese', 'sangiovese', 'prugnolo gentile', 'sangioveto'),
  twoWay('tempranillo', 'tempranillo', 'tinta roriz', 'aragonez', 'tinto fino'),
  twoWay('sauvignon-blanc', 'sauvignon blanc', 'fumé blanc', 'muskat-silvaner'),
  twoWay('carignan', 'carignan', 'carignano', 'mazuelo', 'cariñena'),
  twoWay('zweigelt', 'zweigelt', 'blauer zweigelt', 'rotburger'),
  twoWay('muscat', 'muscat', 'moscato', 'muskateller', 'moscatel'),
  twoWay('chenin-blanc', 'chenin blanc', 'pineau de la loire', 'steen'),
  twoWay('malbec', 'malbec', 'côt noir', 'auxerrois noir'),
  twoWay('cabernet-sauvignon', 'cabernet sauvignon', 'cab sauv'),
  twoWay('gruner-veltliner', 'grüner veltliner', 'weissgipfler', 'gruner'),
  // styles (two-way: the same thing in en, de, fr, it)
  twoWay('sparkling', 'sparkling', 'schaumwein', 'mousseux', 'spumante'),
  twoWay('semi-sparkling', 'semi-sparkling', 'perlwein', 'pétillant', 'frizzante'),
  twoWay('red', 'red', 'rot', 'rouge', 'rosso'),
  twoWay('white', 'white', 'weiss', 'blanc', 'bianco'),
  twoWay('rose', 'rosé', 'rosato', 'rosado'),
  twoWay('dry', 'dry', 'trocken', 'sec', 'secco'),
  twoWay('sweet', 'sweet', 'süss', 'doux', 'dolce'),
  twoWay('magnum', 'magnum', '1.5 l', '150 cl'),
  twoWay('half-bottle', 'half bottle', '37.5 cl', '375 ml', 'demi-bouteille'),
  // styles (one-way: the general word finds the particular ones, not the reverse)
  oneWay('bubbly', ['bubbly', 'bubbles', 'fizz'], ['sparkling', 'champagne', 'crémant', 'spumante', 'sekt', 'cava', 'prosecco', 'franciacorta']),
  oneWay('sparkling-kinds', ['sparkling', 'schaumwein', 'mousseux', 'spumante'], ['champagne', 'crémant', 'sekt', 'cava', 'prosecco', 'franciacorta']),
  oneWay(
    'dessert',
    ['dessert wine', 'süsswein', 'vin doux', 'vino dolce'],
    ['sweet', 'passito', 'late harvest', 'spätlese', 'auslese', 'beerenauslese', 'sauternes', 'vendanges tardives'],
  ),
  oneWay('fortified', ['fortified', 'likörwein', 'vin muté', 'vino liquoroso'], ['port', 'porto', 'sherry', 'jerez', 'madeira', 'marsala']),
];
