/**
 * Every place a fixed string occurs in a text, overlapping ones included, in one pass
 * (Knuth-Morris-Pratt: at most 2 x (text + needle) comparisons whatever both hold). Repeated
 * `indexOf` from each hit, or a RegExp built from the needle, costs text x needle on texts such
 * as `aaaa...` against `aaa`.
 */

/**
 * The start of each occurrence of `needle` in `text`, in order; none for an empty needle.
 *
 * @example
 * ```ts
 * [...occurrences("aaaa", "aa")]; // [0, 1, 2]
 * ```
 */
export function* occurrences(text: string, needle: string): Generator<number> {
  const m = needle.length;
  if (m === 0 || m > text.length) return;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1];
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== needle.charCodeAt(k)) k = fail[k - 1];
    if (c === needle.charCodeAt(k)) k++;
    if (k === m) {
      yield i - m + 1;
      k = fail[k - 1];
    }
  }
}
