/** Breadcrumb: the page's position in the site's hierarchy, shown instead of its URL. */
import { asList, isReference, type JsonObject } from "../../terms.ts";
import { type GoogleFeature, SD_DOCS } from "../feature.ts";
import { type Check, nodeOf, required } from "../rule_kit.ts";

/** BreadcrumbList entries: position and name everywhere, an item URL on all but the last. */
const breadcrumbEntries: Check = (n, out) => {
  const entries = asList(n.data.itemListElement).map((v) => nodeOf(n, v)).filter((
    x,
  ): x is JsonObject => !!x);
  if (entries.length === 1) {
    out.push({
      severity: "warning",
      property: "itemListElement",
      feature: "",
      message: "A breadcrumb trail needs at least two ListItems (e.g. Home > this page).",
    });
  }
  const positions = entries.map((e) => Number(asList(e.position)[0]));
  const last = Math.max(...positions.filter(Number.isFinite));
  entries.forEach((e, i) => {
    const at = entries.length > 1 ? `itemListElement[${i}]` : "itemListElement";
    const pos = asList(e.position)[0];
    if (pos === undefined || !/^\d+$/.test(String(pos))) {
      out.push({
        severity: "error",
        property: `${at}.position`,
        feature: "",
        message: 'Add "position": the entry\'s place in the trail, 1 for the first.',
      });
    }
    const item = asList(e.item)[0];
    const itemNode = item !== undefined && typeof item !== "string" ? nodeOf(n, item) : null;
    const name = asList(e.name)[0] ?? (itemNode ? asList(itemNode.name)[0] : undefined);
    if (name === undefined) {
      out.push({
        severity: "error",
        property: `${at}.name`,
        feature: "",
        message: 'Add "name": the entry\'s title as shown in the trail.',
      });
    }
    const url = typeof item === "string"
      ? item
      : isReference(item)
      ? item["@id"]
      : itemNode?.["@id"] ?? itemNode?.url;
    if (url === undefined && Number(pos) !== last) {
      out.push({
        severity: "error",
        property: `${at}.item`,
        feature: "",
        message:
          'Add "item": the URL of the page this entry links to (only the last entry may omit it).',
      });
    } else if (typeof url === "string" && !/^https?:\/\//i.test(url)) {
      out.push({
        severity: "warning",
        property: `${at}.item`,
        feature: "",
        message: `Use an absolute URL for "item" (found "${url.slice(0, 80)}").`,
      });
    }
  });
};

export const breadcrumb: GoogleFeature = {
  name: "Breadcrumb",
  status: "supported",
  since: null,
  url: `${SD_DOCS}breadcrumb`,
  checked: "2026-11-26",
  rules: [{
    nodes: "a BreadcrumbList",
    types: ["BreadcrumbList"],
    checks: [required("itemListElement", "the trail's ListItems"), breadcrumbEntries],
  }],
  complete: [{
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: "Books", item: "https://example.com/books" },
      { "@type": "ListItem", position: 2, name: "Science fiction" },
    ],
  }],
};
