/**
 * Applying a report's fix as a site owner would, by reading its instructions
 * (lib/engines/visibility/fix_steps.ts readSteps): paste into the `<head>` of a page (a tag of the same
 * name replaced, the page's JSON-LD replaced when the step says so), near the top of its main
 * text, into its footer, as its `<html>` tag; create a file; add, replace or delete lines of
 * robots.txt. Each FILL-IN is replaced first with a plausible value of its kind (a URL, a date,
 * a sentence), numbered so that no two pages get the same words, as an owner writes their own.
 * What the owner changes by hand (a template, a CDN) and what to check afterwards are returned,
 * not applied.
 */
import { type FixStep, readSteps } from "../../lib/engines/visibility/fix_steps.ts";
import { parseHow } from "../../lib/engines/visibility/fix_text.ts";

/** Where the fix is applied: the site's files as they are served now. */
export interface EditableFiles {
  /** The body served at the URL now, or null when it answers no 2xx. */
  read(url: string): Promise<string | null>;
  write(url: string, body: string): void;
}

/** What applying one fix did. */
export interface Applied {
  /** Steps applied to the site. */
  applied: FixStep[];
  /** Changes only the owner can make (a template, a CDN setting). */
  byHand: FixStep[];
  /** What the fix says to check afterwards. */
  checks: FixStep[];
}

let filled = 0;

/**
 * The code with each FILL-IN replaced as an owner would: a URL where a URL goes, a date where a
 * date goes, else a short sentence (numbered, so titles and descriptions stay distinct).
 */
export function fillIns(code: string, origin: string): string {
  return code
    // Inside a URL: "https://www.wikidata.org/wiki/FILL-IN-your-item-id".
    .replace(/FILL-IN-[A-Za-z0-9-]+/g, () => `filled${++filled}`)
    .replace(/FILL-IN(: [^"<|\n]*)?/g, (_, what = "") => {
      const n = ++filled;
      if (/YYYY-MM-DD/.test(what)) return "2026-11-15";
      if (/\bURL\b|https?:/i.test(what)) return `${origin}/filled/${n}.png`;
      if (/\bdate\b/i.test(what)) return "15 November 2026";
      if (/\bauthor\b|\bname\b/i.test(what)) return `Filled Name ${n}`;
      // A sentence where a sentence is asked for (a description: 50-170 characters), else words.
      if (/sentence/i.test(what)) {
        return `Filled in by the owner: sentence ${n}, on what this page offers and for whom`;
      }
      return `Owner's words ${n}`;
    });
}

/** The key a head tag is known by: a page has one of each (title, description, og:x...). */
function tagKey(tag: string): string | null {
  if (/^<title\b/i.test(tag)) return "title";
  const attr = (name: string) =>
    tag.match(new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, "i"))?.[1]?.toLowerCase() ?? null;
  if (/^<meta\b/i.test(tag)) {
    const name = attr("name") ?? attr("property");
    return name ? `meta:${name}` : null;
  }
  if (/^<link\b/i.test(tag) && attr("rel") === "canonical") return "canonical";
  return null;
}

/** The head tags of a snippet (each `<title>...</title>`, `<meta>` or `<link>`). */
function headTags(code: string): string[] {
  return [...code.matchAll(/<title\b[^>]*>[^<]*<\/title>|<(?:meta|link)\b[^>]*>/gi)].map((m) =>
    m[0]
  );
}

/** A page with `code` pasted before `</head>`, replacing tags of the same name it already has. */
export function pasteInHead(html: string, code: string, replaceJsonLd = false): string {
  const headEnd = html.search(/<\/head>/i);
  let head = headEnd >= 0 ? html.slice(0, headEnd) : html;
  const rest = headEnd >= 0 ? html.slice(headEnd) : "";
  const keys = new Set(headTags(code).map(tagKey).filter((k): k is string => k !== null));
  for (const tag of headTags(head)) {
    const k = tagKey(tag);
    if (k && keys.has(k)) head = head.replace(tag, "");
  }
  if (replaceJsonLd) {
    head = head.replace(/<script\b[^>]*application\/ld\+json[^>]*>[\s\S]*?<\/script>/gi, "");
  }
  return headEnd >= 0 ? `${head}${code}\n${rest}` : `${code}\n${html}`;
}

/** A page with `code` just after its first `<h1>` (else at the top of `<main>` or `<body>`). */
function pasteInMain(html: string, code: string): string {
  const h1 = html.match(/<\/h1>/i);
  if (h1?.index !== undefined) {
    const at = h1.index + h1[0].length;
    return `${html.slice(0, at)}\n${code}\n${html.slice(at)}`;
  }
  const open = html.match(/<(main|article|body)\b[^>]*>/i);
  if (open?.index === undefined) return `${code}\n${html}`;
  const at = open.index + open[0].length;
  return `${html.slice(0, at)}\n${code}\n${html.slice(at)}`;
}

/** A page with `code` at the end of its footer (else before `</body>`). */
function pasteInFooter(html: string, code: string): string {
  const at = html.search(/<\/footer>/i);
  const end = at >= 0 ? at : html.search(/<\/body>/i);
  return end >= 0 ? `${html.slice(0, end)}${code}\n${html.slice(end)}` : `${html}\n${code}`;
}

/** A page with `code` at the top of its header (else of its body). */
function pasteInHeader(html: string, code: string): string {
  const open = html.match(/<header\b[^>]*>/i) ?? html.match(/<body\b[^>]*>/i);
  if (open?.index === undefined) return `${code}\n${html}`;
  const at = open.index + open[0].length;
  return `${html.slice(0, at)}\n${code}\n${html.slice(at)}`;
}

/** robots.txt after one robots step. */
function robotsEdit(robots: string, step: FixStep): string {
  let lines = robots.replace(/\n$/, "").split("\n");
  const code = step.code.join("\n\n").split("\n");
  if (step.kind === "robots-replace") {
    const [a, b] = step.lines!;
    lines = [...lines.slice(0, a - 1), ...code, ...lines.slice(b)];
  } else if (step.kind === "robots-delete") {
    lines.splice(step.lines![0] - 1, 1);
  } else if (step.top) {
    lines = [...code, "", ...lines];
  } else {
    lines = [...lines, "", ...code];
  }
  return lines.join("\n") + "\n";
}

/** Applies every step of a fix's `how` that the site's files can take. */
export async function applyHow(files: EditableFiles, how: string): Promise<Applied> {
  const out: Applied = { applied: [], byHand: [], checks: [] };
  for (const step of readSteps(how)) {
    if (step.kind === "by-hand") {
      out.byHand.push(step);
      continue;
    }
    if (step.kind === "check") {
      out.checks.push(step);
      continue;
    }
    if (!step.urls.length) throw new Error(`a step names no page or file: ${step.text}`);
    if (!step.code.length && step.kind !== "robots-delete") {
      throw new Error(`a step has no code to paste: ${step.text}`);
    }
    for (const url of step.urls) {
      const origin = new URL(url).origin;
      const code = step.code.map((c) => fillIns(c, origin)).join("\n");
      const now = await files.read(url);
      if (step.kind === "file") {
        files.write(url, code);
        continue;
      }
      if (step.kind.startsWith("robots-")) {
        files.write(url, robotsEdit(now ?? "", { ...step, code: [code] }));
        continue;
      }
      if (now === null) throw new Error(`${url} is not a page the site serves (${step.text})`);
      files.write(
        url,
        step.kind === "head"
          ? pasteInHead(now, code, step.replacesJsonLd)
          : step.kind === "main"
          ? pasteInMain(now, code)
          : step.kind === "footer"
          ? pasteInFooter(now, code)
          : step.kind === "header"
          ? pasteInHeader(now, code)
          : now.replace(/<html\b[^>]*>/i, code),
      );
    }
    out.applied.push(step);
  }
  return out;
}

/** robots.txt after the robots steps of a fix's `how`, in the order they are written. */
export function applyRobotsHow(robots: string, how: string): string {
  const steps = readSteps(how).filter((s) => s.kind.startsWith("robots-"));
  if (!steps.length) throw new Error(`no robots.txt step to apply in:\n${how}`);
  return steps.reduce((text, step) => robotsEdit(text, step), robots);
}

/** A page with the first code block of a "paste into the <head>" fix pasted before `</head>`. */
export function pasteIntoHead(html: string, how: string): string {
  const code = parseHow(how).find((p) => p.kind === "code");
  if (!code || code.kind !== "code") throw new Error(`no code to paste in:\n${how}`);
  return pasteInHead(html, code.code);
}
