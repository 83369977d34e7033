/**
 * A temporary copy of the repository (the files git tracks, and the new ones it does not ignore),
 * for tests that follow a recipe of docs/architecture.md and run the project's own commands on
 * the result: tests/facts_test.ts, tests/recipes_test.ts.
 */
import { dirname, join } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Copies the repository into a new temporary directory; node_modules is linked, not copied. */
export async function copyRepository(prefix = "repo_copy_"): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  const copy = await Deno.makeTempDir({ prefix });
  for (const file of new TextDecoder().decode(out.stdout).split("\0").filter(Boolean)) {
    const from = join(ROOT, file);
    if (!(await Deno.stat(from).catch(() => null))?.isFile) continue; // deleted, not committed
    await Deno.mkdir(join(copy, dirname(file)), { recursive: true });
    await Deno.copyFile(from, join(copy, file));
  }
  // What installs and builds make is shared, not copied (the pages need the built bundles).
  await Deno.symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
  if (await Deno.stat(join(ROOT, "static/build")).catch(() => null)) {
    await Deno.symlink(join(ROOT, "static/build"), join(copy, "static/build"));
  }
  return copy;
}
