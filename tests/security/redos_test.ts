/**
 * [redos] Every regular expression of the server's code is linear in its input, as decided by a
 * ReDoS analyser (recheck, https://makenowjust-labs.github.io/recheck/): a backtracking engine such
 * as V8's spends exponential or polynomial time on some patterns, and one such pattern on text from
 * a page, a file, a header, a form or a vendor costs a scan thread or the server's thread.
 *
 * The regular expressions are found from the source by Deno's own parser (its lint plugin API, the
 * AST the linter sees), so a new one cannot escape: every regex literal of `lib/`, `routes/`,
 * `main.ts` and `mod.ts` is analysed; a `RegExp` built at run time, or a string handed to
 * `match`/`matchAll`/`search` (which compile it), fails the test, since its pattern is not known
 * here (build a linear matcher instead: robots.txt rules use robots.ts's, brand names a plain
 * search in lib/features/answers/presence.ts).
 *
 * A pattern the analyser finds super-linear may stay only with a length cap enforced where it runs,
 * listed in {@link CAPPED} with the code that caps it (the test checks that the code is still
 * there). A pattern the analyser can judge only by fuzzing (lookarounds, back-references, large
 * bounded repeats) is listed in {@link FUZZ_ONLY} with the reason it is linear.
 *
 * It fails on the old `LEGAL_FORMS` of lib/engines/structured/site_name.ts (exponential), the old
 * byline trim of lib/engines/structured/bylines.ts, the old mailto test of
 * lib/engines/structured/dom_facts.ts, the old redaction patterns of lib/kit/log.ts and the RegExp
 * built from robots.txt rules in lib/engines/visibility/robots_groups.ts.
 */
import assert from "node:assert/strict";
import { check, type Diagnostics } from "recheck";

/** Where the server's code is. */
const ROOTS = ["main.ts", "mod.ts", "lib", "routes"];

/** Patterns that are super-linear but run only on text cut to a stated length first. */
const CAPPED: { file: string; pattern: string; cap: string; reason: string }[] = [
  {
    file: "lib/engines/structured/dom_facts.ts",
    pattern: String
      .raw`(?:([€£₹₩₺$¥])\s?(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?))|(?:(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s?([€£₹₩₺]|[A-Z]{3})\b)`,
    cap: "PRICE_RE.exec(textOf(el, 100, budget))",
    reason: "a visible price: read from at most 100 characters of the element's text " +
      "(quadratic in a run of digits: at most 10,000 steps)",
  },
];

/**
 * RegExps built at run time from constants of the code (never from input), each with why it is
 * linear; any other construction fails the test.
 */
const BUILT_FROM_CONSTANTS: { file: string; start: string; reason: string }[] = [
  {
    file: "lib/features/logs/crawler_match.ts",
    start: 'new RegExp(TOKENS.map(escape).join("|"), "i")',
    reason: "the crawler registry's tokens, escaped, as literal alternatives",
  },
  {
    file: "lib/features/logs/crawler_match.ts",
    start: "new RegExp(\n  `(?<![A-Za-z0-9_-])(${TOKENS.map(escape)",
    reason: "the registry's tokens as literal alternatives; each lookaround reads one character",
  },
];

/**
 * Patterns the analyser judged safe by fuzzing only (its automaton check does not take lookarounds
 * and bounded repeats past its limits), each with why it is linear.
 */
const FUZZ_ONLY: { pattern: string; reason: string }[] = [
  {
    pattern: String.raw`^\S+ \S+ \S+ \[[^\]]{20,40}\] "`,
    reason: "anchored; three runs of non-space, each ended by a space, then a bounded bracket",
  },
  {
    pattern: String.raw`^Bearer[ ]+([\x21-\x7e]{1,512})\s*$`,
    reason: "anchored; one run of spaces, a bounded run of visible characters, trailing space",
  },
  {
    pattern: String
      .raw`^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$`,
    reason: "anchored; the lookahead caps the text at 253 characters before the labels are read",
  },
  {
    pattern: String
      .raw`^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$`,
    reason: "anchored; the lookahead caps the text at 253 characters before the labels are read",
  },
  {
    pattern: String
      .raw`^P(?=\d|T\d)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?$`,
    reason: "anchored; each number is closed by its own letter, so every digit has one place",
  },
  {
    pattern: String
      .raw`^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$`,
    reason: "anchored; each number is closed by its own letter, so every digit has one place",
  },
];

/**
 * The analyser's settings: bounded repeats up to 100 are checked as automata, not fuzzed; no time
 * limit anywhere (a verdict must not depend on the machine's load: fuzzing is bounded by its step
 * limits and a fixed seed instead).
 */
const PARAMS = {
  maxRepeatCount: 100,
  randomSeed: 1,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
} as const;

interface Found {
  file: string;
  line: number;
  pattern: string;
  flags: string;
}

interface Built {
  file: string;
  line: number;
  text: string;
}

async function* sourceFiles(path: string): AsyncGenerator<string> {
  const info = await Deno.stat(path);
  if (info.isFile) {
    if (/\.tsx?$/.test(path)) yield path;
    return;
  }
  const names: string[] = [];
  for await (const e of Deno.readDir(path)) names.push(e.name);
  for (const name of names.sort()) yield* sourceFiles(`${path}/${name}`);
}

/** Every regex literal and every run-time regex construction of the server's code. */
async function collect(): Promise<{ literals: Found[]; built: Built[]; files: number }> {
  const literals: Found[] = [];
  const built: Built[] = [];
  let file = "";
  let source = "";
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const plugin: Deno.lint.Plugin = {
    name: "regexes",
    rules: {
      collect: {
        create(ctx) {
          const record = (node: Deno.lint.Node) =>
            built.push({
              file,
              line: lineOf(node.range[0]),
              text: ctx.sourceCode.getText(node).slice(0, 120),
            });
          return {
            Literal(node) {
              if ("regex" in node && node.regex) {
                literals.push({
                  file,
                  line: lineOf(node.range[0]),
                  pattern: node.regex.pattern,
                  flags: node.regex.flags,
                });
              }
            },
            NewExpression(node) {
              if (node.callee.type === "Identifier" && node.callee.name === "RegExp") record(node);
            },
            CallExpression(node) {
              const callee = node.callee;
              if (callee.type === "Identifier" && callee.name === "RegExp") record(node);
              // "abc".match("x+") compiles its argument: a string there is a regex in disguise.
              if (
                callee.type === "MemberExpression" && callee.property.type === "Identifier" &&
                ["match", "matchAll", "search"].includes(callee.property.name)
              ) {
                const arg = node.arguments[0];
                const isString = arg &&
                  ((arg.type === "Literal" && typeof arg.value === "string") ||
                    arg.type === "TemplateLiteral");
                if (isString) record(node);
              }
            },
          };
        },
      },
    },
  };
  let files = 0;
  for (const root of ROOTS) {
    for await (const path of sourceFiles(root)) {
      file = path;
      source = await Deno.readTextFile(path);
      Deno.lint.runPlugin(plugin, path, source);
      files++;
    }
  }
  return { literals, built, files };
}

Deno.test("[redos] every regex of lib/, routes/, main.ts and mod.ts is linear (recheck)", async (t) => {
  const { literals, built, files } = await collect();
  // The walk saw the code (a broken walk would pass vacuously).
  assert(files > 300, `only ${files} source files found`);
  assert(literals.length > 300, `only ${literals.length} regex literals found`);

  await t.step("no RegExp is built at run time", () => {
    assert.deepEqual(
      built.filter((b) =>
        !BUILT_FROM_CONSTANTS.some((c) => c.file === b.file && b.text.startsWith(c.start))
      ).map((b) => `${b.file}:${b.line} ${b.text}`),
      [],
      "a RegExp built from data (or a string given to match/search) cannot be analysed here: " +
        "write a linear matcher (see this file's header)",
    );
  });

  await t.step("each listed cap is still enforced where the pattern runs", async () => {
    for (const c of CAPPED) {
      const source = await Deno.readTextFile(c.file);
      assert(source.includes(c.cap), `${c.file} no longer runs its pattern as \`${c.cap}\``);
    }
  });

  const byPattern = new Map<string, Found[]>();
  for (const f of literals) {
    const key = `/${f.pattern}/${f.flags}`;
    byPattern.set(key, [...(byPattern.get(key) ?? []), f]);
  }
  const failures: string[] = [];
  let fuzzed = 0;
  for (const sites of byPattern.values()) {
    const { pattern, flags } = sites[0];
    const where = sites.map((s) => `${s.file}:${s.line}`).join(", ");
    const capped = CAPPED.find((c) =>
      c.pattern === pattern && sites.every((s) => s.file === c.file)
    );
    if (capped) continue;
    const result: Diagnostics = await check(pattern, flags, PARAMS);
    if (result.status !== "safe") {
      const detail = result.status === "vulnerable"
        ? `${result.complexity.summary}, attack ${result.attack.pattern.slice(0, 80)}`
        : `${result.status}: ${JSON.stringify(result.error)}`;
      failures.push(`${where}: /${pattern}/${flags} is ${detail}`);
    } else if (result.complexity.isFuzz) {
      fuzzed++;
      if (!FUZZ_ONLY.some((f) => f.pattern === pattern)) {
        failures.push(
          `${where}: /${pattern}/${flags} was judged by fuzzing only: make it decidable or list it ` +
            "in FUZZ_ONLY with the reason it is linear",
        );
      }
    }
  }
  console.log(
    `[redos] ${literals.length} regex literals (${byPattern.size} distinct) in ${files} files; ` +
      `${fuzzed} judged by fuzzing, ${CAPPED.length} capped`,
  );
  assert.deepEqual(failures, [], failures.join("\n"));
});
