/**
 * Validation of an llms.txt against the llmstxt.org format, v2 (standards.ts `llmsTxt`): an H1 with
 * the site's name first (the only required part), a blockquote summary, free paragraphs, then H2
 * sections of `- [name](url): notes` links. An `Optional` section is an ordinary section (v2
 * dropped its special meaning). What v2 recommends but does not require is reported as a problem
 * to fix, on a file that stays valid.
 */

/** What was wrong or right with an llms.txt. */
export interface LlmsTxtReport {
  valid: boolean;
  title: string | null;
  hasSummary: boolean;
  sections: number;
  links: number;
  badLinks: number;
  problems: string[];
}

const LINK_ITEM = /^\s*[-*]\s+\[([^\]]+)\]\(([^)\s]+)\)(?::\s*([^]*))?$/;

/** The http(s) URLs of an llms.txt's `- [name](url)` link items, in file order, deduplicated. */
export function llmsTxtLinks(body: string, baseUrl: string): string[] {
  // A set, not a scan of the list so far: 90,000 links cost 36 s of array scans.
  const out = new Set<string>();
  for (const line of body.split(/\r\n|\r|\n/)) {
    const m = line.match(LINK_ITEM);
    if (!m) continue;
    try {
      const u = new URL(m[2], baseUrl);
      u.hash = "";
      if (u.protocol === "http:" || u.protocol === "https:") out.add(u.href);
    } catch {
      // Not a URL: validateLlmsTxt reports it.
    }
  }
  return [...out];
}

/**
 * Checks an llms.txt body. `valid` means an H1 comes first (v2: the only required section); a
 * missing summary, sections without links and list items that are not links are reported as
 * problems to fix.
 *
 * @example
 * ```ts
 * validateLlmsTxt("# Shop\n\n> We sell tea.\n\n## Docs\n\n- [FAQ](https://shop.example/faq)\n").valid; // true
 * ```
 */
export function validateLlmsTxt(body: string, baseUrl: string): LlmsTxtReport {
  const lines = body.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const problems: string[] = [];
  const firstIndex = lines.findIndex((l) => l.trim() !== "");
  const first = firstIndex >= 0 ? lines[firstIndex].trim() : "";
  const h1 = first.match(/^#\s+([^]+)$/);
  if (/^<(!doctype|html|head|body)/i.test(first)) {
    return {
      valid: false,
      title: null,
      hasSummary: false,
      sections: 0,
      links: 0,
      badLinks: 0,
      problems: ["the file is an HTML page, not Markdown"],
    };
  }
  if (!h1) problems.push("the first line must be an H1 with the site's name (# Name)");
  const rest = lines.slice(firstIndex + 1);
  const summaryIndex = rest.findIndex((l) => l.trim() !== "");
  const hasSummary = summaryIndex >= 0 && /^>\s*\S/.test(rest[summaryIndex].trim());
  if (!hasSummary) problems.push("a one-line > blockquote summary should follow the H1");
  let sections = 0;
  let links = 0;
  let badLinks = 0;
  let inSection = false;
  for (const line of rest) {
    const t = line.trim();
    if (/^#\s/.test(t)) problems.push("only one H1 is allowed");
    if (/^##\s+\S/.test(t)) {
      sections++;
      inSection = true;
      continue;
    }
    if (!inSection) continue;
    const m = line.match(LINK_ITEM);
    if (m) {
      try {
        const u = new URL(m[2], baseUrl);
        if (u.protocol === "http:" || u.protocol === "https:") links++;
        else badLinks++;
      } catch {
        badLinks++;
      }
    } else if (/^\s*[-*]\s+/.test(line)) {
      badLinks++;
    }
  }
  if (!sections) problems.push("no ## sections listing pages: agents get no links to follow");
  else if (!links) problems.push("the ## sections hold no - [name](url) link items");
  if (badLinks) problems.push(`${badLinks} list items are not - [name](url) links`);
  return {
    valid: !!h1,
    title: h1 ? h1[1].trim() : null,
    hasSummary,
    sections,
    links,
    badLinks,
    problems: [...new Set(problems)],
  };
}
