/** The program's source files (main.ts, mod.ts, lib/, routes/, islands/), for the layout tests. */
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), "..", ".."));
const ROOTS = ["main.ts", "mod.ts", "lib", "routes", "islands"];

/** Every .ts/.tsx file under the program's roots, relative to the repository. */
export async function programFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    const info = await Deno.stat(join(ROOT, rel));
    if (info.isFile) {
      if (/\.(ts|tsx)$/.test(rel)) out.push(rel);
      return;
    }
    for await (const e of Deno.readDir(join(ROOT, rel))) await walk(join(rel, e.name));
  };
  for (const r of ROOTS) await walk(r);
  return out.sort();
}
