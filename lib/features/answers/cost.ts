/**
 * What a run is estimated to cost before it starts, and what its calls cost by the usage the
 * vendors reported, in US dollars. Both are estimates: the prices are the vendors' published
 * prices as read on the day each adapter's `price.source` says (or the operator's
 * ANSWERS_<VENDOR>_PRICE), and before a run the tokens and searches of a call are assumptions
 * (each adapter's `assumed`: the answer's cap, the searches it may run). Taxes, discounts, free
 * tiers and the vendors' own rounding are not modelled.
 */
import type { CallPrice, ProviderAdapter, Usage, VendorDoc } from "./provider.ts";

/** The estimate of one provider's share of a run. */
export interface ProviderEstimate {
  id: string;
  model: string;
  calls: number;
  /** Dollars per call, and the run's share (calls x per call). */
  usdPerCall: number;
  usd: number;
  /** What the price assumes, in words. */
  assumes: string;
  /** Where the price comes from: the vendor's page, or the operator's setting. */
  priceFrom: { setting: string } | VendorDoc;
  /** True when the model is not the one the default price is for (the operator should set one). */
  priceMayNotMatch: boolean;
}

/** Dollars of one call that uses `usage`. */
export function callCost(price: CallPrice, usage: Usage): number {
  return price.perRequest + usage.searches * price.perSearch +
    (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1e6;
}

/** The estimate of `calls` calls of `provider` asking `model`. */
export function estimateProvider(
  provider: ProviderAdapter,
  model: string,
  calls: number,
  override: CallPrice | undefined,
  setting: string,
): ProviderEstimate {
  const price = override ?? provider.price.value;
  const perCall = callCost(price, {
    inputTokens: provider.assumed.input,
    outputTokens: provider.assumed.output,
    searches: provider.assumed.searches,
  });
  return {
    id: provider.id,
    model,
    calls,
    usdPerCall: round(perCall),
    usd: round(perCall * calls),
    assumes: `${provider.assumed.input} input and at most ${provider.assumed.output} output ` +
      `tokens and ${provider.assumed.searches} search${
        provider.assumed.searches === 1 ? "" : "es"
      } per call; ${override ? `the price set in ${setting}` : provider.price.assumes}`,
    priceFrom: override ? { setting } : provider.price.source,
    priceMayNotMatch: !override && model !== provider.defaultModel,
  };
}

/** Dollars rounded to a hundredth of a cent. */
export function round(usd: number): number {
  return Math.round(usd * 10_000) / 10_000;
}
