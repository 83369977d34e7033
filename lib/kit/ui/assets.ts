/** Where the built browser bundles are: read once from static/build/manifest.json (never written). */
import { staticPath } from "../report_urls.ts";

/** Bundle names the pages may load. */
export type AssetName =
  | "islandsPublic"
  | "islandsAccount"
  | "altcha"
  | "altchaCss"
  | "comfort";

let manifest: Record<string, string> | null = null;

/** The URL of a built bundle, e.g. "/static/build/islands.3f2a9c0d1e2b.js". */
export function assetUrl(name: AssetName): string {
  if (!manifest) {
    try {
      manifest = JSON.parse(
        Deno.readTextFileSync(new URL("../../../static/build/manifest.json", import.meta.url)),
      );
    } catch {
      throw new Error("static/build/manifest.json is missing: run `deno task build` first");
    }
  }
  const file = manifest![name];
  if (!file) throw new Error(`no built bundle named ${name}: run \`deno task build\``);
  return staticPath(`build/${file}`);
}
