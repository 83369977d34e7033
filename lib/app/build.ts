/**
 * `deno task build`: bundles the browser code ahead of time (Deno Deploy has no writable file
 * system at run time): the islands' hydration entry and the ALTCHA widget, each to
 * static/build/<name>.<hash>.js, and static/build/manifest.json mapping names to files.
 */
const ENTRIES = {
  islandsPublic: "islands/client_public.ts",
  islandsAccount: "islands/client_account.ts",
  altcha: "islands/altcha_widget.ts",
  comfort: "islands/client_comfort.ts",
} as const;

const root = new URL("../../", import.meta.url).pathname;
const out = `${root}static/build`;

/**
 * The project's deno.json with the automatic JSX runtime. deno.json compiles JSX with
 * "precompile", which turns static markup into string templates: ideal for server rendering,
 * but Preact cannot hydrate or update such templates in the browser (islands would render once
 * and never change). So the browser bundles are built from a copy of the config (beside deno.json,
 * so imports, node_modules and the lock file are the same) that says "react-jsx".
 */
async function browserConfig(): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  config.compilerOptions = { ...config.compilerOptions, jsx: "react-jsx" };
  const path = `${root}.deno.browser.${Deno.pid}.json`;
  await Deno.writeTextFile(path, JSON.stringify(config));
  return path;
}

async function bundle(name: string, entry: string, config: string): Promise<string> {
  const tmp = `${out}/${name}.tmp.js`;
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--config",
      config,
      "--platform",
      "browser",
      "--minify",
      "-o",
      tmp,
      `${root}${entry}`,
    ],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!result.success) throw new Error(`deno bundle failed for ${entry}`);
  const bytes = await Deno.readFile(tmp);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hash = [...digest.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const file = `${name}.${hash}.js`;
  await Deno.rename(tmp, `${out}/${file}`);
  return file;
}

if (import.meta.main) {
  await Deno.remove(out, { recursive: true }).catch(() => {});
  await Deno.mkdir(out, { recursive: true });
  const manifest: Record<string, string> = {};
  const config = await browserConfig();
  try {
    for (const [name, entry] of Object.entries(ENTRIES)) {
      manifest[name] = await bundle(name, entry, config);
    }
  } finally {
    await Deno.remove(config).catch(() => {});
  }
  // The widget's stylesheet, linked with id="altcha-css" so the widget does not inject an inline
  // <style> (which the page CSP forbids).
  const css = await Deno.readFile(`${root}node_modules/altcha/dist/external/altcha.css`);
  const cssHash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", css)).slice(0, 6)]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  manifest.altchaCss = `altcha.${cssHash}.css`;
  await Deno.writeFile(`${out}/${manifest.altchaCss}`, css);
  await Deno.writeTextFile(`${out}/manifest.json`, JSON.stringify(manifest, null, 2) + "\n");
  for (const [name, file] of Object.entries(manifest)) {
    const size = (await Deno.stat(`${out}/${file}`)).size;
    console.log(`static/build/${file}  ${(size / 1024).toFixed(1)} KiB  (${name})`);
  }
}
