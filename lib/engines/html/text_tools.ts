/** Small text helpers shared by the page-facts extractor. */

/**
 * Collapses every whitespace run (including NBSP, which `&nbsp;` decodes to) to one space and
 * trims the ends, as a browser's rendering of normal-flow text would.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Cuts `text` to at most `max` UTF-16 units without leaving half a surrogate pair at the end,
 * which would serialize as a lone escape in the JSON record.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Character classes for word counting. */
const OTHER = 0, SPACE = 1, WORD = 2, IDEOGRAPH = 3;

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const IDEOGRAPH_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const SPACE_CHAR = /^\s$/;

/** Classes of ASCII, the common case, precomputed. */
const ASCII_CLASSES = new Uint8Array(128).map((_, code) =>
  /[A-Za-z0-9]/.test(String.fromCharCode(code))
    ? WORD
    : /\s/.test(String.fromCharCode(code))
    ? SPACE
    : OTHER
);

/**
 * Class of each BMP code unit, filled lazily (0 = not yet known, else class + 1): word
 * counting visits every character of the page text, and a per-character regex would cost more
 * than parsing the page.
 */
const bmpClasses = new Uint8Array(0x10000);

function classifyCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (IDEOGRAPH_CHAR.test(ch)) return IDEOGRAPH;
  if (WORD_CHAR.test(ch)) return WORD;
  if (SPACE_CHAR.test(ch)) return SPACE;
  return OTHER;
}

function classOf(code: number): number {
  const known = bmpClasses[code];
  if (known !== 0) return known - 1;
  const cls = classifyCodePoint(code);
  bmpClasses[code] = cls + 1;
  return cls;
}

/**
 * Streaming text statistics over chunks, as if they were joined and whitespace-collapsed:
 * words (runs of letters/digits, combining marks kept inside the run so Devanagari or Thai
 * vowel signs do not split words; Han, Hiragana and Katakana characters count one each since
 * those scripts do not separate words with spaces, while Hangul is spaced and counts by runs),
 * collapsed character count, and the start of the collapsed text.
 */
export class TextStats {
  /** Words seen so far. */
  words = 0;
  /** Characters of the collapsed text so far (trailing whitespace not counted). */
  chars = 0;
  private inWord = false;
  private pendingSpace = false;
  private readonly head: string[] = [];

  /** `keep`: collapsed characters of the text start that {@link sample} can return. */
  constructor(private readonly keep = 0) {}

  /** Feeds the next chunk; a word may continue across chunks. */
  add(chunk: string): void {
    if (this.chars < this.keep) this.head.push(chunk);
    let words = this.words, chars = this.chars, inWord = this.inWord, space = this.pendingSpace;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const code = chunk.charCodeAt(i);
      let cls: number;
      let units = 1;
      if (code < 128) {
        cls = ASCII_CLASSES[code];
      } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) {
        const low = chunk.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cls = classifyCodePoint(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
          units = 2;
          i++;
        } else cls = OTHER;
      } else {
        cls = classOf(code);
      }
      if (cls === SPACE) {
        space = chars > 0;
        inWord = false;
        continue;
      }
      if (space) {
        chars++;
        space = false;
      }
      chars += units;
      if (cls === WORD) {
        if (!inWord) words++;
        inWord = true;
      } else {
        if (cls === IDEOGRAPH) words++;
        inWord = false;
      }
    }
    this.words = words;
    this.chars = chars;
    this.inWord = inWord;
    this.pendingSpace = space;
  }

  /** An element boundary: ends the current word and reads as whitespace. */
  breakWord(): void {
    this.inWord = false;
    if (this.chars > 0) this.pendingSpace = true;
    if (this.chars < this.keep) this.head.push(" ");
  }

  /** The first `keep` characters of the collapsed text. */
  sample(): string {
    return truncate(collapseWhitespace(this.head.join("")), this.keep);
  }
}

/** Counts words as {@link TextStats} defines them. */
export function countWords(text: string): number {
  const stats = new TextStats();
  stats.add(text);
  return stats.words;
}

/** UTF-8 byte length without allocating an encoded copy (inline scripts can be megabytes). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair is 2 UTF-16 units and 4 UTF-8 bytes: +2 here, the low half adds 0.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

const QUESTION_START = /^(?:who|what|when|where|why|how|can|does|is|are|should)\b/i;

/**
 * Whether a heading is phrased as a question (FAQ-like structure): it ends with a question
 * mark (ASCII or full-width), or starts with an English question word once list numbering
 * such as "3. " or "Q: " is skipped.
 */
export function isQuestionHeading(text: string): boolean {
  const t = text.trim();
  if (t.endsWith("?") || t.endsWith("\uff1f")) return true;
  return QUESTION_START.test(t.replace(/^(?:q\s*[:.]|\d+\s*[.):-])\s*/i, ""));
}

/**
 * Accumulates text chunks up to a size budget: headings, anchors and paragraphs only need their
 * first few hundred characters, and a hostile page must not make us copy megabytes into each.
 */
export class TextBuffer {
  private readonly parts: string[] = [];
  private size = 0;

  /** `max`: characters kept; chunks arriving after the budget is spent are dropped. */
  constructor(private readonly max: number) {}

  /** Appends a chunk while the budget lasts. */
  add(chunk: string): void {
    if (this.size >= this.max) return;
    this.parts.push(chunk);
    this.size += chunk.length;
  }

  /** Everything kept so far, raw (not collapsed). */
  raw(): string {
    return this.parts.join("");
  }

  /** Kept text, whitespace-collapsed. */
  text(): string {
    return collapseWhitespace(this.parts.join(""));
  }
}
