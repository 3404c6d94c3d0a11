import type { DestinationReason, DestinationVerdict } from '../shipping/index.js';
import type { TenantSettings } from '../tenancy/index.js';

export interface Compliance {
  terms: { required: boolean; terms_url: string; privacy_url: string };
  age_verification: { required: boolean; min_age: number };
  /** Only in shops with destination rules (README "Shipping"). */
  destination?: { allowed: boolean; reasons: DestinationReason[] };
}

/**
 * SPEC "compliance", recomputed at every read and again at completion; consent is never stored.
 * Terms come from the shop settings. An age check is required when a line's alcohol_volume is above
 * `applies_to_alcohol_volume_over` and the delivery country's minimum age (`min_age_by_country`, else `min_age`)
 * is above 0; min_age is 0 when no check is required. A zone's destination rule with a minimum age (`verdict`)
 * replaces both for its addresses, and the verdict is shown as `destination` (only when the shop has rules).
 */
export function complianceOf(
  settings: TenantSettings,
  alcoholVolumes: Array<string | number | null>,
  shippingCountry: string | null,
  verdict: DestinationVerdict | null = null,
): Compliance {
  const av = settings.age_verification ?? { min_age: 0, min_age_by_country: {}, applies_to_alcohol_volume_over: 0 };
  const threshold = Number(av.applies_to_alcohol_volume_over ?? 0);
  const alcoholic = alcoholVolumes.some((v) => v !== null && v !== undefined && Number(v) > threshold);
  const byCountry = av.min_age_by_country ?? {};
  let minAge = shippingCountry && byCountry[shippingCountry] !== undefined ? Number(byCountry[shippingCountry]) : Number(av.min_age ?? 0);
  let required = alcoholic && minAge > 0;
  if (verdict?.minAge) {
    minAge = verdict.minAge;
    required = true;
  }
  const terms = settings.terms ?? { required: false, terms_url: null, privacy_url: null };
  return {
    // SPEC: terms_url and privacy_url are strings (not nullable): "" when the shop configures none
    terms: { required: !!terms.required, terms_url: terms.terms_url ?? '', privacy_url: terms.privacy_url ?? '' },
    age_verification: { required, min_age: required ? minAge : 0 },
    ...(verdict ? { destination: { allowed: verdict.allowed, reasons: verdict.reasons } } : {}),
  };
}
