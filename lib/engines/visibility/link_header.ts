/**
 * The llms.txt v2 link relations of a page (standards.ts `llmsTxt`): its markdown version
 * (`rel="alternate" type="text/markdown"`) and the llms.txt that covers it (`rel="describedby"`),
 * from its HTML `<link>` elements (PageFacts) and its HTTP `Link:` header (RFC 8288), both read.
 */
import type { PageFacts } from "../html/types.ts";

/** What a page declares for llms.txt v2. */
export interface LlmsRelations {
  /** Its markdown versions, absolute URLs. */
  markdown: string[];
  /** The llms.txt files said to describe it, absolute URLs. */
  describedBy: string[];
}

/** The most links of each kind kept (a hostile header may hold thousands). */
const MAX = 5;

/**
 * Reads a Link header value: `<url>; rel="alternate"; type="text/markdown", <url>; rel=describedby`.
 * Relations are matched as space-separated tokens, case-insensitively; URLs resolve against
 * `base`; only http(s) targets are kept. Never throws.
 */
export function readLinkHeader(value: string, base: string): LlmsRelations {
  const out: LlmsRelations = { markdown: [], describedBy: [] };
  for (const { target, params } of linkValues(value.slice(0, 16_384))) {
    const rels = (params.get("rel") ?? "").toLowerCase().split(/\s+/);
    let url: string;
    try {
      const u = new URL(target.trim(), base);
      if (u.protocol !== "http:" && u.protocol !== "https:") continue;
      url = u.href;
    } catch {
      continue;
    }
    if (rels.includes("describedby") && out.describedBy.length < MAX) out.describedBy.push(url);
    const type = (params.get("type") ?? "").toLowerCase().split(";")[0].trim();
    if (rels.includes("alternate") && type === "text/markdown" && out.markdown.length < MAX) {
      out.markdown.push(url);
    }
  }
  return out;
}

/**
 * The link-values of a Link header: `<target>` then `; name=value` parameters (quoted values may
 * hold commas and semicolons), up to the next comma outside quotes. The first value of a
 * repeated parameter wins (RFC 8288 3).
 */
function* linkValues(s: string): Generator<{ target: string; params: Map<string, string> }> {
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf("<", i);
    if (open < 0) return;
    const close = s.indexOf(">", open + 1);
    if (close < 0) return;
    const target = s.slice(open + 1, close);
    const params = new Map<string, string>();
    i = close + 1;
    let name = "";
    let val = "";
    let inName = false;
    let quoted = false;
    const flush = () => {
      const key = name.trim().toLowerCase();
      if (key && !params.has(key)) params.set(key, val.trim());
      name = "";
      val = "";
    };
    for (; i < s.length; i++) {
      const ch = s[i];
      if (quoted) {
        if (ch === '"') quoted = false;
        else val += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ";") {
        if (inName || name) flush();
        inName = true;
      } else if (ch === ",") break;
      else if (ch === "=" && inName) inName = false;
      else if (inName) name += ch;
      else val += ch;
    }
    if (name) flush();
    i++;
    yield { target, params };
  }
}

/** A page's relations from its `<link>` elements and its Link header, deduplicated. */
export function llmsRelations(
  facts: Pick<PageFacts, "markdownAlternates" | "describedBy">,
  headers: Record<string, string>,
  base: string,
): LlmsRelations {
  const fromHeader = headers.link ? readLinkHeader(headers.link, base) : {
    markdown: [],
    describedBy: [],
  };
  return {
    markdown: [...new Set([...facts.markdownAlternates, ...fromHeader.markdown])].slice(0, MAX),
    describedBy: [...new Set([...facts.describedBy, ...fromHeader.describedBy])].slice(0, MAX),
  };
}

/**
 * The path an llms.txt covers (llms.txt v2: a file covers the pages under its path): the folder
 * it sits in, e.g. `/docs/` for /docs/llms.txt and `/` for /llms.txt.
 */
export function llmsScope(url: string): string {
  try {
    const path = new URL(url).pathname;
    return path.slice(0, path.lastIndexOf("/") + 1) || "/";
  } catch {
    return "/";
  }
}

/**
 * The file covering a page among known llms.txt files: the most specific one (the longest
 * folder) on the page's own origin whose folder holds the page; null when none does.
 */
export function coveringLlms(pageUrl: string, files: readonly string[]): string | null {
  let page: URL;
  try {
    page = new URL(pageUrl);
  } catch {
    return null;
  }
  let best: string | null = null;
  for (const f of files) {
    let origin = "";
    try {
      origin = new URL(f).origin;
    } catch {
      continue;
    }
    const scope = llmsScope(f);
    if (origin !== page.origin || !page.pathname.startsWith(scope)) continue;
    if (!best || scope.length > llmsScope(best).length) best = f;
  }
  return best;
}
