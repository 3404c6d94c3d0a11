/**
 * Standard and reduced VAT rates of the 27 EU member states, Switzerland, Norway and the United Kingdom: the
 * preset `eu-2026` (`npm run shop -- tax load-eu --tenant T`, import `tax: {preset: "eu-2026"}`).
 *
 * Source: European Commission, DG TAXUD, "VAT rates applied in the Member States of the European Union"
 * (taxation-customs.ec.europa.eu, the Taxes in Europe Database), the Swiss Federal Tax Administration (ESTV, rates
 * from 1 January 2024), the Norwegian Tax Administration (Skatteetaten) and HM Revenue & Customs (gov.uk, "VAT rates").
 * Checked: 2026-11-26, transcribed from those publications as known to the author on that date, WITHOUT online access
 * to them from the build machine (so not re-read that day) (including the 2024-2025 changes:
 * FI 25.5 %, SK 23 %, EE 24 %, RO 21 % / 11 %, CZ 12 % single reduced rate; FI reduced 13.5 % from 2026-01-01).
 * `reduced` is the main reduced rate (food); a country without one has none. Verify before relying on it: rates change.
 *
 * Excise duty and the VAT base (`exciseInVatBase`, set on every zone of the preset): in all 30 countries the VAT is
 * charged on the price including excise duties. Sources: Council Directive 2006/112/EC (the VAT Directive), article
 * 78(a) (the taxable amount includes "taxes, duties, levies and charges, excluding the VAT itself"), binding on the
 * 27 member states; Switzerland, Bundesgesetz über die Mehrwertsteuer (MWSTG, SR 641.20) art. 24 para. 1 and ESTV
 * MWST-Info 07 (Bemessungsgrundlage: the consideration includes the alcohol tax); Norway, merverdiavgiftsloven
 * § 4-2 (the base includes excise duties, "avgifter"); United Kingdom, Value Added Tax Act 1994 s. 19 and HMRC VAT
 * Notice 700 (VAT is due on the duty-paid value). Checked: 2026-11-26, from those texts as known to the author on
 * that date, WITHOUT online access from the build machine (not re-read that day). The excise amounts themselves are
 * not in this file (they change often and differ by product): set them per rate (`excise_per_hl`) in the zone's
 * `excise_currency`.
 */
export interface PresetCountry {
  code: string;
  name: string;
  standard: number;
  reduced: number | null;
}

export const EU_VAT_2026 = {
  preset: 'eu-2026',
  source: 'European Commission (DG TAXUD) "VAT rates applied in the Member States of the EU"; ESTV (CH); Skatteetaten (NO); HMRC (UK)',
  checked: '2026-11-26',
  /** The VAT base includes excise duties in every country of this file (sources above). */
  exciseInVatBase: true,
  exciseInVatBaseSource: 'Directive 2006/112/EC art. 78(a); MWSTG art. 24 (CH); merverdiavgiftsloven § 4-2 (NO); VATA 1994 s. 19, HMRC Notice 700 (UK)',
  countries: [
    { code: 'AT', name: 'Austria', standard: 20, reduced: 10 },
    { code: 'BE', name: 'Belgium', standard: 21, reduced: 6 },
    { code: 'BG', name: 'Bulgaria', standard: 20, reduced: 9 },
    { code: 'HR', name: 'Croatia', standard: 25, reduced: 13 },
    { code: 'CY', name: 'Cyprus', standard: 19, reduced: 9 },
    { code: 'CZ', name: 'Czechia', standard: 21, reduced: 12 },
    { code: 'DK', name: 'Denmark', standard: 25, reduced: null },
    { code: 'EE', name: 'Estonia', standard: 24, reduced: 9 },
    { code: 'FI', name: 'Finland', standard: 25.5, reduced: 13.5 },
    { code: 'FR', name: 'France', standard: 20, reduced: 5.5 },
    { code: 'DE', name: 'Germany', standard: 19, reduced: 7 },
    { code: 'GR', name: 'Greece', standard: 24, reduced: 13 },
    { code: 'HU', name: 'Hungary', standard: 27, reduced: 5 },
    { code: 'IE', name: 'Ireland', standard: 23, reduced: 13.5 },
    { code: 'IT', name: 'Italy', standard: 22, reduced: 10 },
    { code: 'LV', name: 'Latvia', standard: 21, reduced: 12 },
    { code: 'LT', name: 'Lithuania', standard: 21, reduced: 9 },
    { code: 'LU', name: 'Luxembourg', standard: 17, reduced: 8 },
    { code: 'MT', name: 'Malta', standard: 18, reduced: 7 },
    { code: 'NL', name: 'Netherlands', standard: 21, reduced: 9 },
    { code: 'PL', name: 'Poland', standard: 23, reduced: 8 },
    { code: 'PT', name: 'Portugal', standard: 23, reduced: 13 },
    { code: 'RO', name: 'Romania', standard: 21, reduced: 11 },
    { code: 'SK', name: 'Slovakia', standard: 23, reduced: 19 },
    { code: 'SI', name: 'Slovenia', standard: 22, reduced: 9.5 },
    { code: 'ES', name: 'Spain', standard: 21, reduced: 10 },
    { code: 'SE', name: 'Sweden', standard: 25, reduced: 12 },
    { code: 'CH', name: 'Switzerland', standard: 8.1, reduced: 2.6 },
    { code: 'NO', name: 'Norway', standard: 25, reduced: 15 },
    { code: 'GB', name: 'United Kingdom', standard: 20, reduced: 5 },
  ] satisfies PresetCountry[],
} as const;

export const TAX_PRESETS = { 'eu-2026': EU_VAT_2026 } as const;
export type TaxPresetName = keyof typeof TAX_PRESETS;
