/**
 * `deno task wasm`: builds the WebAssembly the program ships from its text, with wabt (a tests'
 * dependency: the program loads only the bytes). Each module's text is `<name>.wat` beside the
 * TypeScript module that holds its bytes, `<name>_wasm.ts`; tests/features/logs/clf_bytes_test.ts
 * fails while the two differ.
 *
 * ```sh
 * deno task wasm            # rewrite what is stale, print what changed
 * deno task wasm --check    # write nothing; exit 1 and name each stale file
 * ```
 */
import wabtInit from "wabt";

const ROOT = new URL("../../", import.meta.url);

/** The modules built: their text, relative to the program's root. */
export const WAT_FILES = ["lib/features/logs/clf_scan.wat"];

/** The bytes of a module's text. */
export async function compileWat(path: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const text = await Deno.readTextFile(new URL(path, ROOT));
  const module = wabt.parseWat(path, text, { simd: true });
  try {
    module.validate();
    return module.toBinary({ log: false, write_debug_names: false }).buffer;
  } finally {
    module.destroy();
  }
}

/** What `<name>_wasm.ts` holds for these bytes. */
export function wasmModuleText(path: string, bytes: Uint8Array): string {
  const b64 = (bytes as Uint8Array & { toBase64(): string }).toBase64();
  const lines = b64.match(/.{1,88}/g) ?? [];
  return `/**
 * The bytes of ${path.split("/").pop()} (beside this file), written by \`deno task wasm\`
 * (tests/tools/build_wasm.ts): do not edit.
 */
export const WASM_BASE64 =
${lines.map((l, i) => `  "${l}"${i === lines.length - 1 ? ";" : " +"}`).join("\n")}
`;
}

/** The TypeScript module of a module's text. */
export const tsPathOf = (path: string) => path.replace(/\.wat$/, "_wasm.ts");

if (import.meta.main) {
  const check = Deno.args.includes("--check");
  let stale = 0;
  for (const path of WAT_FILES) {
    const want = wasmModuleText(path, await compileWat(path));
    const target = new URL(tsPathOf(path), ROOT);
    const have = await Deno.readTextFile(target).catch(() => "");
    if (have === want) continue;
    stale++;
    if (check) console.log(`stale: ${tsPathOf(path)}`);
    else {
      await Deno.writeTextFile(target, want);
      console.log(`wrote ${tsPathOf(path)}`);
    }
  }
  if (check && stale) Deno.exit(1);
}
