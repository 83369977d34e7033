/**
 * The linear text helpers (lib/text/) that replace super-linear regular expressions: each agrees
 * with the expression it replaces, on every code unit and on generated strings.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import fc from "fast-check";
import { charsOf, cutAt, isSpace, trimBoth, trimEnd, trimStart } from "../lib/kit/text/trim.ts";
import { occurrences } from "../lib/kit/text/occurrences.ts";

Deno.test("[text] isSpace is RegExp \\s on every UTF-16 code unit", () => {
  for (let code = 0; code <= 0xffff; code++) {
    assertEquals(isSpace(code), /\s/.test(String.fromCharCode(code)), `U+${code.toString(16)}`);
  }
});

Deno.test("[text] trims agree with the expressions they replace", () => {
  const text = fc.array(fc.constantFrom("/", "a", " ", "\u00a0", "-", "|", ",", "é"), {
    maxLength: 20,
  }).map((a) => a.join(""));
  fc.assert(fc.property(text, (s) => {
    assertEquals(trimEnd(s, charsOf("/")), s.replace(/\/+$/, ""));
    assertEquals(trimStart(s, charsOf("/")), s.replace(/^\/+/, ""));
    assertEquals(trimBoth(s, charsOf("/")), s.replace(/^\/+|\/+$/g, ""));
    assertEquals(
      trimBoth(s, charsOf("|-", true), charsOf("|-,", true)),
      s.replace(/^[\s|-]+|[\s|,-]+$/g, ""),
    );
    assertEquals(cutAt(s, "-"), s.replace(/-[^]*$/, ""));
  }));
});

Deno.test("[text] occurrences finds every (overlapping) place, as a naive search does", () => {
  assertEquals([...occurrences("aaaa", "aa")], [0, 1, 2]);
  assertEquals([...occurrences("abc", "")], []);
  const small = fc.array(fc.constantFrom("a", "b"), { maxLength: 16 }).map((a) => a.join(""));
  fc.assert(fc.property(small, small, (text, needle) => {
    const naive: number[] = [];
    if (needle) {
      for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) naive.push(i);
    }
    assertEquals([...occurrences(text, needle)], naive);
  }));
  // A million a's against 1,000 a's: linear (a naive search would compare about 10^9 times).
  const hits = [...occurrences("a".repeat(1_000_000), "a".repeat(1000))].length;
  assert(hits === 999_001);
});
