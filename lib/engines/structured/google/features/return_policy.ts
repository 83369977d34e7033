/** Return policy: a merchant's return policy next to its products. */
import { shortTerm } from "../../terms.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { recommended, required, valuesAt } from "../rule_kit.ts";

export const returnPolicy: GoogleFeature = {
  name: "Return policy",
  status: "supported",
  since: null,
  url: `${SD_DOCS}return-policy`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a MerchantReturnPolicy (on an Organization or an Offer)",
    types: ["MerchantReturnPolicy"],
    checks: [
      required(
        "returnPolicyCategory",
        'e.g. "https://schema.org/MerchantReturnFiniteReturnWindow"',
      ),
      recommended("applicableCountry", 'the two-letter country code, e.g. "DE"'),
      (n, out) => {
        const finite = valuesAt(n, "returnPolicyCategory").some((v) =>
          shortTerm(String(v)) === "MerchantReturnFiniteReturnWindow"
        );
        if (finite) required("merchantReturnDays", "how many days returns are accepted")(n, out);
      },
    ],
  }],
  complete: [{
    "@type": "MerchantReturnPolicy",
    applicableCountry: "NO",
    returnPolicyCategory: "https://schema.org/MerchantReturnFiniteReturnWindow",
    merchantReturnDays: 30,
  }],
};
