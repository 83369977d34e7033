/** Working out the name a site presents itself under, from the sources that state it. */
import type { PageFacts } from "../html/types.ts";
import { type JsonLdNode, nodesOfType, ORGANIZATION_TYPES, stringValues } from "./jsonld.ts";

/** Where each candidate name came from. */
export interface NameSources {
  jsonLdOrganization: string | null;
  jsonLdWebsite: string | null;
  ogSiteName: string | null;
  applicationName: string | null;
  /** The title segment that looks like a brand (split on | - – — : ·). */
  titleBrand: string | null;
}

/** Lowercase letters and digits only, for comparing names. */
export function nameKey(s: string): string {
  return s.toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]/gu, "");
}

/** Collects the names a page gives itself. */
export function nameSources(facts: PageFacts, nodes: JsonLdNode[], domain: string): NameSources {
  const first = (v: unknown) => stringValues(v)[0] ?? null;
  const label = nameKey(domain.split(".")[0]);
  const segments = (facts.title ?? "").split(/\s+[|\-–—:·]\s+/).map((s) => s.trim()).filter(
    Boolean,
  );
  const titleBrand = segments.find((s) => {
    const k = nameKey(s);
    return k && (k.includes(label) || label.includes(k));
  }) ?? (segments.length > 1
    ? segments[segments.length - 1]
    // A short title with no separator is usually the name itself ("Pete's Plumbing Tips").
    : segments.length === 1 && segments[0].split(/\s+/).length <= 5
    ? segments[0]
    : null);
  return {
    jsonLdOrganization: first(nodesOfType(nodes, [...ORGANIZATION_TYPES])[0]?.data.name),
    jsonLdWebsite: first(nodesOfType(nodes, ["WebSite"])[0]?.data.name),
    ogSiteName: facts.openGraph["og:site_name"]?.trim() || null,
    applicationName: facts.meta["application-name"]?.trim() || null,
    titleBrand,
  };
}

/** The best single name: what the site states explicitly first, the title's brand part last. */
export function pickSiteName(s: NameSources): string | null {
  return s.jsonLdOrganization ?? s.ogSiteName ?? s.jsonLdWebsite ?? s.applicationName ??
    s.titleBrand ?? null;
}
