/**
 * Trimming runs of characters at the ends of a string in one pass: the linear replacement for
 * `/[set]+$/` and `/^[set]+|[set]+$/g`, which a backtracking engine runs in quadratic time on a long
 * run that is not at the end (each start inside the run scans to its end).
 */

/** A test on one UTF-16 code unit. */
export type CharTest = (code: number) => boolean;

/** True for the code units RegExp `\s` matches (white space and line terminators). */
export function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 ||
    code === 0xfeff;
}

/**
 * A test for the characters of `chars` (BMP characters only), and white space too when `space`.
 *
 * @example
 * ```ts
 * trimEnd("a/b///", charsOf("/")); // "a/b"
 * ```
 */
export function charsOf(chars: string, space = false): CharTest {
  const set = new Set<number>();
  for (let i = 0; i < chars.length; i++) set.add(chars.charCodeAt(i));
  return space ? (code) => set.has(code) || isSpace(code) : (code) => set.has(code);
}

/** `text` without the run of characters passing `test` at its end. */
export function trimEnd(text: string, test: CharTest): string {
  let end = text.length;
  while (end > 0 && test(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the run of characters passing `test` at its start. */
export function trimStart(text: string, test: CharTest): string {
  let start = 0;
  while (start < text.length && test(text.charCodeAt(start))) start++;
  return start === 0 ? text : text.slice(start);
}

/** `text` without a leading run passing `head` and a trailing run passing `tail` (default `head`). */
export function trimBoth(text: string, head: CharTest, tail: CharTest = head): string {
  return trimEnd(trimStart(text, head), tail);
}

/** `text` cut at the first `char` (a comment or fragment removed), or whole without one. */
export function cutAt(text: string, char: string): string {
  const at = text.indexOf(char);
  return at < 0 ? text : text.slice(0, at);
}
