/**
 * An offer's price and currency, checked once for every feature that reads them (Product snippets
 * and Merchant listings): a price that is not a plain number and a currency that is not an ISO
 * 4217 code are errors wherever they appear, so one invalid value gives one verdict. The
 * validator keeps one finding for an issue several features report alike, and counts it for each.
 */
import {
  type Check,
  fits,
  KIND_HINT,
  oneOf,
  preview,
  type RuleNode,
  valuesAt,
} from "./rule_kit.ts";

/** A value at one of `paths` that is not of the kind: an error naming it. */
function invalid(paths: string[], kind: "number" | "currency", report: string): Check {
  return (n: RuleNode, out) => {
    for (const p of paths) {
      const bad = valuesAt(n, p).find((v) => !fits(kind, v, n));
      if (bad !== undefined) {
        out.push({
          severity: "error",
          property: report === "" ? p : report,
          feature: "",
          message: `"${report === "" ? p : report}" should be ${KIND_HINT[kind]}; found ${
            preview(bad)
          }.`,
        });
        return;
      }
    }
  };
}

/** The offer's price: there, and a plain number (both errors). */
export const offerPrice: Check[] = [
  oneOf("error", ["price", "priceSpecification.price"], "the price, as a number"),
  invalid(["price"], "number", ""),
  invalid(["priceSpecification.price"], "number", ""),
];

/** The offer's currency, when stated, is an ISO 4217 code (an error otherwise). */
export const offerCurrencyValid: Check = invalid(
  ["priceCurrency", "priceSpecification.priceCurrency"],
  "currency",
  "priceCurrency",
);
