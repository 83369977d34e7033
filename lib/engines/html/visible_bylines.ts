/**
 * Bylines and dates as a page shows them to its readers, read during the one SAX pass
 * (page_facts.ts feeds it every element and every piece of visible text): "By Anna Reid", "Par
 * ...", "Por A, B y C", "Von ...", a link to the author's page, "Anna Reid · 12 October 2026"
 * inside a byline, a `<time datetime>` or a written date after "Published", "Updated", "Publié",
 * "Mis à jour", "Publicado", "Atualizado", "Veröffentlicht", "Aktualisiert" (the languages of the
 * shared corpus's article pages, and German).
 *
 * The page's text is cut into lines at block elements; a line of at most {@link MAX_LINE}
 * characters outside navigation, footers and asides is read once, with a few linear regexes. The
 * first line that names its authors is the byline; dates are the first published and updated
 * ones a byline, a label or the markup's classes identify. Nothing is guessed: a name is two to
 * six capitalised words (particles such as "de" or "van" between them), with no digit, no
 * "@" and at most 100 characters (Google's limit for an author's name); a date is a real calendar
 * day. A page that shows no byline gets none.
 */
import { datesIn, isoDatetime } from "./visible_dates.ts";

/** What a page shows of who wrote it and when. */
export interface VisibleBylines {
  /** The byline's people, as shown (with the link to their page, when the name is one). */
  authors: { name: string; url: string | null }[];
  /** When it was published, as an ISO date or date-time (null: not shown). */
  published: string | null;
  /** When it was last updated (null: not shown). */
  updated: string | null;
}

/** Lines longer than this are prose, not a byline. */
export const MAX_LINE = 300;
/** The longest author's name (Google's review-snippet rule: over 100 characters is no name). */
const MAX_NAME = 100;
const MAX_AUTHORS = 10;

/** Words that open a byline, in the corpus's languages (and German, Dutch, Nordic, Polish). */
const PREFIX =
  /^(?:(?:written|posted|words|story|text|reporting|reported|photos?|published) by|by|par|por|von|door|av|przez|autor(?:in|a)?:?|author:?|auteur:?)\s/i;
/** Where a line's parts meet: "Le Monde | 04.05.2015 • Mis à jour ... | Par ...". */
const SEPARATORS = /\s[|·•—–-]\s|[|·•]/;
/** Where an author's name ends in the text after the prefix. */
const NAME_END = /[(@|·•\d]|\s[—–-]\s/;
/**
 * Between names (in text whose whitespace is already single spaces): "A, B y C", "A and B",
 * "A & B", "A et B", "A und B", "A e B".
 */
const BETWEEN_NAMES = / ?[,;] ?| (?:and|&|und|et|y|e|en|og|och|i) /i;
/**
 * A byline's opening word at the start of a line (the cheap test before reading it; a byline
 * later in a line follows a separator, which {@link SEPARATOR_CHAR} finds).
 */
const CUE =
  /^\s*(?:written |posted |words |story |text |reporting |reported |photos? |published )?(?:by|par|por|von|door|av|przez|autor|autora|autorin|author|auteur)\W/i;
const SEPARATOR_CHAR = /[|·•—–]/;
const DIGIT = /\d/;
const UPDATED =
  /\b(?:updated|last updated|modified|mis à jour|actualizado|actualizada|atualizado|atualizada|aktualisiert)\b/i;
const PUBLISHED =
  /\b(?:published|posted|publié|publiée|publicado|publicada|veröffentlicht|erschienen)\b/i;
/** Either label (the cheap test before reading a line's dates). */
const LABEL =
  /\b(?:updated|last updated|modified|mis à jour|actualizado|actualizada|atualizado|atualizada|aktualisiert|published|posted|publié|publiée|publicado|publicada|veröffentlicht|erschienen)\b/i;
/** A name word: capitalised (any script with case), or an initial ("C."), or all capitals. */
const NAME_WORD = /^(?:\p{Lu}[\p{L}\p{M}'’-]*\.?|\p{Lu}\.)$/u;
/** Lowercase words that belong inside names ("Michiel de Jong", "Ludwig van Beethoven"). */
const PARTICLES = new Set(["de", "da", "das", "do", "dos", "del", "della", "di", "du", "la", "le"]
  .concat(["van", "von", "der", "den", "ter", "ten", "bin", "ibn", "al", "el", "y"]));
/** Capitalised words that are not part of a person's name in a byline's place. */
const NOT_NAMES = new Set(
  [
    "news",
    "staff",
    "team",
    "editor",
    "editors",
    "editorial",
    "contributors",
    "contributor",
    "agency",
    "press",
    "media",
    "newsletter",
    "subscribe",
    "sign",
    "privacy",
    "terms",
    "cookie",
    "cookies",
    "policy",
    "menu",
    "home",
    "search",
    "share",
    "follow",
    "more",
    "read",
    "latest",
    "top",
    "related",
    "comments",
    "comment",
    "breaking",
    "live",
    "update",
    "updated",
    "published",
    "posted",
    "video",
    "videos",
    "photos",
    "sport",
    "sports",
    "business",
    "opinion",
    "world",
    "politics",
    "weather",
    "login",
    "log",
    "the",
    "our",
    "your",
    "this",
    "all",
    "about",
    "contact",
    "blog",
    "shop",
    "store",
    "inc",
    "ltd",
    "llc",
    "gmbh",
  ],
);
/** Where an author's own page is: /author/..., /authors/..., /journaliste/..., /@handle. */
const AUTHOR_PATH =
  /\/(?:author|authors|autor|autores|auteur|auteurs|autoren|journaliste|journalist|journalists|redacteur|redakteur|contributor|contributors|writer|writers|byline|columnist)\/|\/@[\w.-]/i;
/**
 * Classes, ids, itemprops and rels of a byline's element, as words of them ("c-byline__link",
 * "article-byline", "auteur", itemprop "author"; not "authority").
 */
const BYLINE_CLASS = /(?:^|[\s_-])(?:byline|author|authors|auteur|autor|signature)(?:$|[\s_-])/i;
/** Classes of what bylines hold besides names: a place ("São Paulo"), a photo credit. */
const NOT_A_NAME_CLASS =
  /(?:^|[\s_-])(?:location|place|city|country|region|caption|photo|image)(?:$|[\s_-])/i;
/** An unlabelled date belongs to a byline found at most this many lines before or after it. */
const NEAR_LINES = 4;
const CHROME_TAGS = new Set(["nav", "footer", "aside"]);

/** Whether `text` is a person's name as a byline shows it. */
export function isPersonName(text: string): boolean {
  if (!text || text.length > MAX_NAME) return false;
  const words = text.split(" ");
  if (words.length < 2 || words.length > 6) return false;
  if (NOT_NAMES.has(words[0].toLowerCase().replace(/\.$/, ""))) return false;
  let named = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (NOT_NAMES.has(w.toLowerCase())) return false;
    if (NAME_WORD.test(w)) named++;
    else if (!(i > 0 && i < words.length - 1 && PARTICLES.has(w))) return false;
  }
  return named >= 2;
}

/** The people a byline's text names (after its prefix), each checked as a name. */
function namesIn(text: string): string[] {
  // The names end where a date, a handle, a parenthesis or another part of the line starts.
  const end = NAME_END.exec(text);
  const date = datesIn(text, 1)[0];
  const cut = Math.min(end?.index ?? text.length, date?.start ?? text.length);
  const head = text.slice(0, cut).trim();
  const out: string[] = [];
  for (const part of head.split(BETWEEN_NAMES)) {
    const name = part.trim().replace(/[.,;:]$/, "");
    if (isPersonName(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

interface Link {
  href: string;
  /** The line it started in (a link that spans lines starts its later lines at 0). */
  line: number;
  start: number;
  end: number;
  author: boolean;
}

interface Open {
  chrome: boolean;
  byline: boolean;
  /** Its text is not a name (a place, a photo credit). */
  noName: boolean;
  link: Link | null;
  time: boolean;
}

/**
 * Reads a page's visible bylines from the SAX pass: `open`/`close` for every element, `text` for
 * visible text, `boundary` where a block element starts or ends (page_facts.ts calls them).
 */
export class BylineReader {
  private readonly stack: Open[] = [];
  private chrome = 0;
  private byline = 0;
  private noName = 0;
  /** Lines read since the byline's authors were found (-1: not found yet). */
  private sinceAuthors = -1;
  /** An unlabelled date of a byline element seen before any author, and how many lines ago. */
  private pending: { iso: string; lines: number } | null = null;
  private line = "";
  /** How many lines were cut so far: a link knows whether it opened in this one. */
  private lineNo = 0;
  private overflow = false;
  private lineByline = false;
  private times: { at: number; iso: string; kind: "published" | "updated" | null }[] = [];
  private links: Link[] = [];
  private readonly authors: VisibleBylines["authors"] = [];
  private published: string | null = null;
  private updated: string | null = null;

  /** `resolve` makes an href absolute (or null: not an http(s) link); called only for bylines. */
  constructor(private readonly resolve: (href: string) => string | null) {}

  /** An element opens (every element, so that closes pair with opens). */
  open(name: string, attribs: Record<string, string>): void {
    const { class: cls, id, itemprop, rel, role } = attribs;
    const chrome = CHROME_TAGS.has(name) ||
      (role !== undefined && /^(?:navigation|contentinfo|complementary)$/.test(role));
    // Most elements carry none of these: no string is built for them.
    const marked = cls !== undefined || id !== undefined || itemprop !== undefined ||
      rel !== undefined;
    const noName = marked && NOT_A_NAME_CLASS.test(`${cls ?? ""} ${itemprop ?? ""}`);
    const byline = marked && !noName &&
      BYLINE_CLASS.test(`${cls ?? ""} ${id ?? ""} ${itemprop ?? ""} ${rel ?? ""}`);
    let link: Link | null = null;
    if (name === "a" && attribs.href !== undefined) {
      // Resolved only if a byline names it (most links are never read here).
      const href = attribs.href;
      link = {
        href,
        line: this.lineNo,
        start: this.line.length,
        end: -1,
        author: AUTHOR_PATH.test(href) || byline,
      };
    }
    const time = name === "time" && attribs.datetime !== undefined;
    if (time) {
      const value = isoDatetime(attribs.datetime);
      if (value) {
        const cls = `${attribs.class ?? ""} ${attribs.itemprop ?? ""}`;
        this.times.push({
          at: this.line.length,
          iso: value,
          kind: /updated|modified/i.test(cls)
            ? "updated"
            : /published/i.test(cls)
            ? "published"
            : null,
        });
      }
    }
    if (chrome) this.chrome++;
    if (noName) this.noName++;
    if (byline) {
      this.byline++;
      this.lineByline = true;
    }
    this.stack.push({ chrome, byline, noName, link, time });
  }

  /** The innermost open element closes. */
  close(): void {
    const top = this.stack.pop();
    if (!top) return;
    if (top.chrome) this.chrome--;
    if (top.byline) this.byline--;
    if (top.noName) this.noName--;
    if (top.link) {
      if (top.link.line !== this.lineNo) top.link.start = 0;
      top.link.end = this.line.length;
      this.links.push(top.link);
    }
  }

  /** Visible text. */
  text(data: string): void {
    if (this.overflow) return;
    if (this.byline > 0) this.lineByline = true;
    if (this.noName > 0) {
      // A place or a photo credit inside a byline is neither a name nor part of one: it ends
      // the name before it ("Bruno Rodrigues | São Paulo").
      if (/\S/.test(data) && !this.line.endsWith(" | ")) this.line += " | ";
      return;
    }
    this.line += data;
    if (this.line.length > MAX_LINE * 4) this.overflow = true;
  }

  /** A block element starts or ends: the line so far is complete. */
  boundary(): void {
    if (this.line || this.times.length) this.readLine();
    this.line = "";
    this.overflow = false;
    this.lineByline = this.byline > 0;
    this.times = [];
    this.links = [];
    this.lineNo++;
  }

  /** What the page showed. */
  fields(): VisibleBylines {
    this.boundary();
    return { authors: this.authors, published: this.published, updated: this.updated };
  }

  private done(): boolean {
    return this.authors.length > 0 && this.published !== null && this.updated !== null;
  }

  private readLine(): void {
    if (this.chrome > 0 || this.overflow || this.done()) return;
    const raw = this.line;
    // A byline is a short line (whitespace aside): a paragraph of prose is not read at all.
    if (raw.length > MAX_LINE * 2 && raw.replace(/\s+/g, " ").length > MAX_LINE) return;
    // Most lines of a page are prose or navigation: cheap tests first, the reading only where a
    // byline's cue is (its element's class, a link to an author's page, "By", a separator and a
    // digit for "Anna Reid · 12 October 2026").
    const cue = this.authors.length === 0 &&
      (this.lineByline || this.links.some((l) => l.author) || CUE.test(raw) ||
        SEPARATOR_CHAR.test(raw));
    let found: VisibleBylines["authors"] = [];
    if (cue) {
      const text = raw.replace(/\s+/g, " ").trim();
      if (text.length <= MAX_LINE) found = this.authorsOf(text);
    }
    for (const a of found) {
      if (this.authors.length < MAX_AUTHORS) this.authors.push(a);
    }
    if (found.length) {
      this.sinceAuthors = 0;
      // A date the byline showed just before its names ("12 October 2026" then "By ...").
      if (this.pending && this.pending.lines <= NEAR_LINES && this.published === null) {
        this.published = this.pending.iso;
      }
      this.pending = null;
    } else if (this.sinceAuthors >= 0) this.sinceAuthors++;
    if (this.pending) this.pending.lines++;
    // An unlabelled date is the byline's when it is in the byline's line or near it.
    const near = found.length > 0 || (this.sinceAuthors >= 0 && this.sinceAuthors <= NEAR_LINES);
    const pending = this.lineByline && this.sinceAuthors < 0;
    if (this.times.length || (DIGIT.test(raw) && (near || pending || LABEL.test(raw)))) {
      this.datesOf(raw, near, pending);
    }
  }

  private authorsOf(text: string): VisibleBylines["authors"] {
    const urlOf = (l: Link | undefined) => (l ? this.resolve(l.href) : null);
    const withUrl = (name: string) => ({
      name,
      url: urlOf(this.links.find((l) => this.linkText(l) === name)),
    });
    // "By Anna Reid", anywhere a part of the line starts with it ("... | Par Martin ...").
    for (const part of splitParts(text)) {
      const m = PREFIX.exec(part);
      if (!m) continue;
      const names = namesIn(part.slice(m[0].length));
      if (names.length) return names.map(withUrl);
    }
    // A link to the author's own page, or a name inside the page's byline element, alone in its
    // line or beside a date ("Anna Reid · 12 October 2026").
    const parts = splitParts(text).filter((p) => !isDateOnly(p));
    if (parts.length === 1) {
      const name = parts[0].replace(/@[\w.-]+$/, "").trim();
      const link = this.links.find((l) => l.author && this.linkText(l) === name);
      const beside = parts.length < splitParts(text).length;
      if (isPersonName(name) && (link || this.lineByline || beside)) {
        return [{ name, url: urlOf(link) }];
      }
    }
    return [];
  }

  private linkText(l: Link): string {
    return this.line.slice(l.start, l.end < 0 ? undefined : l.end).replace(/\s+/g, " ").trim();
  }

  /**
   * The line's dates: labelled ones ("Updated ...", a `<time class="published">`) wherever they
   * are; unlabelled ones only `near` the byline's names, or kept `pending` when the line is a
   * byline element's and no name was found yet.
   */
  private datesOf(raw: string, near: boolean, pending: boolean): void {
    const kindBefore = (from: number, to: number): "published" | "updated" | null => {
      const before = raw.slice(from, to);
      return UPDATED.test(before) ? "updated" : PUBLISHED.test(before) ? "published" : null;
    };
    const take = (kind: "published" | "updated" | null, iso: string) => {
      if (kind === null && !near) {
        if (pending && !this.pending) this.pending = { iso, lines: 0 };
        return;
      }
      const k = kind ?? "published";
      if (k === "published" && this.published === null) this.published = iso;
      else if (k === "updated" && this.updated === null) this.updated = iso;
    };
    // `<time datetime>` values are exact: they win over the text's own spelling of them.
    if (this.times.length) {
      let from = 0;
      for (const t of this.times) {
        take(t.kind ?? kindBefore(from, t.at), t.iso);
        from = t.at;
      }
      return;
    }
    let from = 0;
    for (const d of datesIn(raw)) {
      take(kindBefore(from, d.start), d.iso);
      from = d.end;
    }
  }
}

/** The parts of a line between its separators. */
function splitParts(text: string): string[] {
  return text.split(SEPARATORS).map((p) => p.trim()).filter(Boolean);
}

/** A part that is only a date ("12 October 2026", "Oct. 12, 2026 at 6:01 am"). */
function isDateOnly(part: string): boolean {
  const dates = datesIn(part, 1);
  if (!dates.length) return false;
  const rest = part.slice(0, dates[0].start) + part.slice(dates[0].end);
  return !/\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+/u.test(rest);
}
