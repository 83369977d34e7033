/**
 * The instructions a fix's `how` gives, written in a few fixed sentence forms and read back from
 * the text. A site owner reads them; {@link readSteps} reads the same words, so a test (and any
 * tool) can apply a fix exactly as written and scan again (tests/fix_verified_test.ts). Every
 * piece of code in a fix belongs to the instruction before it: where to paste it (the `<head>` of
 * a page, near the top of its main text, its footer, its root element), which file it is (a file
 * to create, lines of robots.txt), or the command to check the result with. A fix whose change
 * only the owner can make (a CDN setting, more text) says what to check afterwards.
 */
import { parseHow } from "./fix_text.ts";

/** Where an instruction puts its code. */
export type StepKind =
  /** Paste into the `<head>` of the pages (a tag of the same name is replaced). */
  | "head"
  /** Paste near the top of the pages' main text (after the first `<h1>`). */
  | "main"
  /** Paste into the pages' footer (before `</footer>`, else `</body>`). */
  | "footer"
  /** Paste into the pages' header (after `<header>`, else after `<body>`). */
  | "header"
  /** Replace the pages' root element's opening tag (`<html ...>`). */
  | "root"
  /** The file at the URL is the code, whole (created or replaced). */
  | "file"
  /** Add the code's lines at the end (or the top) of robots.txt. */
  | "robots-add"
  /** Replace lines A-B of robots.txt with the code. */
  | "robots-replace"
  /** Delete line N of robots.txt. */
  | "robots-delete"
  /** A template or setting the scan cannot see into: the owner changes it by hand. */
  | "by-hand"
  /** What to check afterwards, maybe with a command to run. */
  | "check";

/** One instruction of a fix, with the code blocks that follow it. */
export interface FixStep {
  kind: StepKind;
  /** The pages or files it concerns (absolute URLs), in the order written. */
  urls: string[];
  /** The code blocks that belong to it. */
  code: string[];
  /** Its sentence, as written. */
  text: string;
  /** `head`: the page's current JSON-LD blocks are replaced by this one. */
  replacesJsonLd?: boolean;
  /** `robots-add`: at the top of the file rather than the end. */
  top?: boolean;
  /** `robots-replace`: the first and last line replaced; `robots-delete`: the line. */
  lines?: [number, number];
}

/** "of https://a/" or "of each of these pages: https://a/, https://b/" (the URLs a step names). */
function pagesWords(urls: readonly string[]): string {
  return urls.length === 1 ? urls[0] : `each of these pages: ${urls.join(", ")}`;
}

/**
 * "Paste into the <head> of https://example.com/" (a tag the page already has by the same name,
 * such as its canonical or og:title, is replaced, not doubled), and `rest` after it.
 */
export function pasteInHead(urls: readonly string[], rest = ":"): string {
  return `Paste into the <head> of ${pagesWords(urls)}${rest}`;
}

/** "Paste near the top of the main text of ..." (after its `<h1>`). */
export function pasteInMain(urls: readonly string[], rest = ":"): string {
  return `Paste near the top of the main text of ${pagesWords(urls)}, below its heading${rest}`;
}

/** "Paste into the footer of ...". */
export function pasteInFooter(urls: readonly string[], rest = ":"): string {
  return `Paste into the footer of ${pagesWords(urls)}${rest}`;
}

/** "Paste into the header of ..." (at the top of the page, where a cut page still has it). */
export function pasteInHeader(urls: readonly string[], rest = ":"): string {
  return `Paste into the header of ${pagesWords(urls)}${rest}`;
}

/** "Make this the opening tag of ..." (the `<html>` element). */
export function rootTag(urls: readonly string[], rest = ":"): string {
  return `Make this the opening <html> tag of ${pagesWords(urls)}${rest}`;
}

/** "Create https://example.com/llms.txt, served as text/plain, ...". */
export function createFile(url: string, rest: string): string {
  return `Create ${url}${rest}`;
}

/** "Add this line at the end of https://example.com/robots.txt ...". */
export function addRobotsLines(url: string, rest = ":"): string {
  return `Add this line at the end of ${url}${rest}`;
}

/**
 * A change the scan cannot see into (a template, a CDN setting): the owner makes it by hand. Its
 * sentence starts "By hand:" so a reader (and a tool) knows it is not a paste.
 */
export function byHand(text: string): string {
  return `By hand: ${text}`;
}

/** What to check once the change is live: "Afterwards, check ...". */
export function checkAfterwards(text: string): string {
  return `Afterwards, check ${text}`;
}

/** The absolute URLs a sentence names, in order (a trailing comma, colon or period left off). */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/\S+/g)].map((m) => trimEnd(m[0]));
}

/** A URL without the punctuation that ends the sentence around it. */
function trimEnd(url: string): string {
  let end = url.length;
  while (end > 0 && ".,;:)".includes(url[end - 1])) end--;
  return url.slice(0, end);
}

/**
 * Reads a `how` text's instructions. A prose part that starts with one of the sentence forms
 * above starts a step; the code blocks after it belong to it until the next step. Prose that is
 * not an instruction (why, what was checked) is left out; a code block before any step is
 * returned as a step of kind "by-hand" with no URL, so a caller can tell it is unplaced.
 */
export function readSteps(how: string): FixStep[] {
  const steps: FixStep[] = [];
  let current: FixStep | null = null;
  for (const part of parseHow(how)) {
    if (part.kind === "code") {
      if (!current) {
        current = { kind: "by-hand", urls: [], code: [], text: "" };
        steps.push(current);
      }
      current.code.push(part.code);
      continue;
    }
    // A merged fix's "Step 2: ..." heading is not an instruction of its own.
    for (const sentence of part.text.split("\n")) {
      if (/^Step \d+: /.test(sentence)) continue;
      const step = stepOf(sentence.trim());
      if (step) {
        steps.push(step);
        current = step;
      }
    }
  }
  return steps;
}

function stepOf(text: string): FixStep | null {
  const base = { urls: urlsIn(text), code: [] as string[], text };
  if (/^Paste into the <head> of /.test(text)) {
    return {
      ...base,
      kind: "head",
      replacesJsonLd: /replace (those|your current JSON-LD) blocks/.test(text),
    };
  }
  if (/^Paste near the top of the main text of /.test(text)) return { ...base, kind: "main" };
  if (/^Paste into the footer of /.test(text)) return { ...base, kind: "footer" };
  if (/^Paste into the header of /.test(text)) return { ...base, kind: "header" };
  if (/^Make this the opening <html> tag of /.test(text)) return { ...base, kind: "root" };
  if (/^(Create|Serve) https?:\/\//.test(text)) {
    return { ...base, urls: base.urls.slice(0, 1), kind: "file" };
  }
  const replace = text.match(/^In (\S+), replace lines (\d+)-(\d+)\b/);
  if (replace) {
    return {
      ...base,
      urls: [trimEnd(replace[1])],
      kind: "robots-replace",
      lines: [Number(replace[2]), Number(replace[3])],
    };
  }
  const del = text.match(/^In (\S+), delete line (\d+)\b/);
  if (del) {
    return {
      ...base,
      urls: [trimEnd(del[1])],
      kind: "robots-delete",
      lines: [Number(del[2]), Number(del[2])],
    };
  }
  const add = text.match(
    /^(?:Then )?[Aa]dd (?:this group|these groups|this line|these lines) at the (end|top) of (\S+)/,
  );
  if (add) return { ...base, urls: [trimEnd(add[2])], kind: "robots-add", top: add[1] === "top" };
  if (/^By hand: /.test(text)) return { ...base, kind: "by-hand" };
  if (/^Afterwards, check /.test(text)) return { ...base, kind: "check" };
  return null;
}
