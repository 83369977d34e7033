/**
 * docs/architecture.md's recipe for a feature, followed in a temporary copy of the repository: a
 * throwaway feature (a page, its route, its store and an MCP tool that writes to it) is written in
 * its own folder, with one line in each registry the recipe names (its path in PATHS, its route list
 * in ROUTES, its tool list in toolsOf) and its tests' folder. Then, in the copy, the architecture and
 * path tests pass, everything type-checks, the tool is listed and what it writes shows on the page,
 * and nothing changed outside the feature's folders but those registry lines.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { copyRepository } from "./helpers/repo_copy.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const NAME = "notes";

/** The throwaway feature's files, as the recipe's steps lay them out (paths from the repository). */
const FEATURE_FILES: Record<string, string> = {
  // Step 4: its store, its key layout at the top, on the service's KV.
  [`lib/features/${NAME}/store.ts`]: `/**
 * Notes about a site: a throwaway feature of tests/recipes_test.ts. Key layout:
 *   [service, "notes", domain, id] -> the note's text
 */

/** The notes of one service's sites. */
export class NotesStore {
  constructor(private readonly kv: Deno.Kv, private readonly service: string) {}

  /** Keeps a note about a site. */
  async add(domain: string, text: string): Promise<void> {
    await this.kv.set([this.service, "notes", domain, crypto.randomUUID()], text);
  }

  /** The notes about a site. */
  async list(domain: string): Promise<string[]> {
    const out: string[] = [];
    for await (const e of this.kv.list<string>({ prefix: [this.service, "notes", domain] })) {
      out.push(e.value);
    }
    return out;
  }
}
`,
  // Step 3: its page's body, plain props.
  [`lib/features/${NAME}/views/notes_page.tsx`]: `/** The notes page's body (plain props). */
import type { VNode } from "preact";

/** The notes about a site. */
export function NotesPage(props: { domain: string; notes: string[] }): VNode {
  return (
    <section>
      <h1>Notes on {props.domain}</h1>
      <ul>{props.notes.map((n) => <li>{n}</li>)}</ul>
    </section>
  );
}
`,
  // Step 2: its route, its path from PATHS.
  [`lib/features/${NAME}/routes/notes/[domain].tsx`]:
    `/** GET /notes/{domain}: the notes about a site. */
import { domainParam, type RouteDef } from "../../../../kit/web/route.ts";
import { PATHS } from "../../../../kit/report_urls.ts";
import { renderPage } from "../../../../kit/web/render.tsx";
import { shellFor } from "../../../../kit/web/shell.ts";
import { NotesStore } from "../../store.ts";
import { NotesPage } from "../../views/notes_page.tsx";

/** GET /notes/{domain}. */
export const notesPageRoute: RouteDef = {
  path: PATHS.${NAME},
  handlers: (deps) => {
    const notes = new NotesStore(deps.store.kv, deps.service.name);
    return {
      GET: async (c) => {
        const domain = domainParam(c);
        return renderPage(
          c,
          { title: \`Notes on \${domain}\`, description: "Notes.", noindex: true },
          shellFor(c, deps, {}),
          <NotesPage domain={domain} notes={await notes.list(domain)} />,
        );
      },
    };
  },
};
`,
  // Step 2: its route list.
  [`lib/features/${NAME}/routes.ts`]:
    `/** The notes feature's routes. lib/app/routes.ts lists it. */
import type { RouteDef } from "../../kit/web/route.ts";
import { notesPageRoute } from "./routes/notes/[domain].tsx";

/** The notes feature's routes. */
export const NOTES_ROUTES: readonly RouteDef[] = [notesPageRoute];
`,
  // Step 5: its MCP tool list.
  [`lib/features/${NAME}/mcp_tools.ts`]:
    `/** The notes feature over MCP: add_note keeps a note about a site. */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { domainOf, guarded, type McpContext, type McpTool } from "../../kit/mcp/context.ts";
import { NotesStore } from "./store.ts";

/** The notes tools. */
export const NOTES_TOOLS: readonly McpTool[] = [{ name: "add_note", register: registerAddNote }];

function registerAddNote(server: McpServer, ctx: McpContext): void {
  server.registerTool("add_note", {
    title: "Add a note about a site",
    description: "Keeps a note about a site; GET /notes/{domain} shows them.",
    inputSchema: { domain: z.string().min(1).max(253), text: z.string().min(1).max(200) },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  }, ({ domain, text }) =>
    guarded(ctx, "add_note", async () => {
      const site = domainOf(domain);
      await new NotesStore(ctx.deps.store.kv, ctx.deps.service.name).add(site, text);
      return { content: [{ type: "text", text: \`Noted on \${site}.\` }] };
    }));
}
`,
  // Step 6: its tests, mirroring its folder.
  [`tests/features/${NAME}/notes_test.ts`]:
    `/** The throwaway feature of tests/recipes_test.ts, served by the normal composition. */
import assert from "node:assert/strict";
import { startAppEnv } from "../../helpers/app_env.ts";

Deno.test("[notes] its tool writes to its store and its page reads it", async () => {
  const env = await startAppEnv();
  try {
    const rpc = async (body: unknown) =>
      await (await env.app.request("/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          host: "localhost",
        },
        body: JSON.stringify(body),
      })).json();
    const listed = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.ok(listed.result.tools.some((t: { name: string }) => t.name === "add_note"));
    const called = await rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "add_note", arguments: { domain: "Example.com", text: "noted by the recipe" } },
    });
    assert.equal(called.result.isError ?? false, false, JSON.stringify(called));
    const page = await env.app.request("/notes/example.com");
    assert.equal(page.status, 200);
    assert.match(await page.text(), /noted by the recipe/);
    const post = await env.app.request("/notes/example.com", { method: "POST" });
    assert.equal(post.status, 405);
    await post.body?.cancel();
  } finally {
    await env.close();
  }
});
`,
};

/** Adds `line` after the first line of `text` that `after` matches. */
function addAfter(text: string, after: RegExp, line: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => after.test(l));
  assert.ok(at >= 0, `no line matching ${after}`);
  lines.splice(at + 1, 0, line);
  return lines.join("\n");
}

/** Adds an import after a module's last import. */
function addImport(text: string, line: string): string {
  const lines = text.split("\n");
  let last = -1;
  lines.forEach((l, i) => {
    if (/^import .* from "[^"]+";$/.test(l) || /^} from "[^"]+";$/.test(l)) last = i;
  });
  assert.ok(last >= 0, "no import to follow");
  lines.splice(last + 1, 0, line);
  return lines.join("\n");
}

/** Every file of a tree, relative to it (node_modules left out). */
async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(join(dir, rel))) {
      const path = join(rel, e.name);
      if (e.name === "node_modules" || e.name === ".git") continue;
      if (e.isDirectory) await walk(path);
      else if (e.isFile) out.push(path);
    }
  };
  await walk("");
  return out.sort();
}

/** The lines `after` has that `before` has not, and the reverse (as multisets). */
function lineChanges(before: string, after: string): { added: string[]; removed: string[] } {
  const count = new Map<string, number>();
  for (const l of before.split("\n")) count.set(l, (count.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of after.split("\n")) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else added.push(l);
  }
  const removed = [...count].flatMap(([l, n]) => Array(n).fill(l));
  return { added, removed };
}

Deno.test({
  name:
    "[recipes] a feature's page, route, store and MCP tool touch only its folders and the registry lines",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const copy = await copyRepository("recipe_copy_");
    try {
      // The recipe names the registries: "one line each in `PATHS` (`<file>`)", "one line in
      // `ROUTES` (`<file>`)", "one line in `toolsOf` (`<file>`)", and the tests' folder.
      const doc = await Deno.readTextFile(join(copy, "docs/architecture.md"));
      const recipe = doc.slice(doc.indexOf("**A feature**"), doc.indexOf("- **A service**"));
      const registry = (name: string) => {
        const file = recipe.match(new RegExp(`\`${name}\` \\(\`([^\`]+)\`\\)`))?.[1];
        assert.ok(file, `the feature recipe names the file of ${name}`);
        return file;
      };
      const paths = registry("PATHS");
      const routes = registry("ROUTES");
      const tools = registry("toolsOf");
      for (
        const step of ["views/", "store.ts", "mcp_tools.ts", "routes.ts", "tests/features/<name>/"]
      ) {
        assert.ok(recipe.includes(`\`${step}\``), `the feature recipe names ${step}`);
      }

      for (const [file, text] of Object.entries(FEATURE_FILES)) {
        await Deno.mkdir(join(copy, dirname(file)), { recursive: true });
        await Deno.writeTextFile(join(copy, file), text);
      }
      const edit = async (file: string, change: (text: string) => string) =>
        await Deno.writeTextFile(
          join(copy, file),
          change(await Deno.readTextFile(join(copy, file))),
        );
      await edit(
        paths,
        (t) => addAfter(t, /^export const PATHS = \{$/, `  ${NAME}: "/notes/{domain}",`),
      );
      const from = (file: string, target: string) => {
        const rel = relative(dirname(file), target);
        return rel.startsWith(".") ? rel : `./${rel}`;
      };
      await edit(routes, (t) =>
        addAfter(
          addImport(
            t,
            `import { NOTES_ROUTES } from "${from(routes, `lib/features/${NAME}/routes.ts`)}";`,
          ),
          /^export const ROUTES\b.*= \[$/,
          "  ...NOTES_ROUTES,",
        ));
      await edit(tools, (t) =>
        addAfter(
          addImport(
            t,
            `import { NOTES_TOOLS } from "${from(tools, `lib/features/${NAME}/mcp_tools.ts`)}";`,
          ),
          /^\s*const tools: readonly McpTool<.*>\[\] = \[$/,
          "    ...NOTES_TOOLS,",
        ));

      // Nothing changed but the feature's folders and one entry (and its import) per registry.
      const changed: string[] = [];
      for (const file of await filesOf(copy)) {
        const now = await Deno.readTextFile(join(copy, file));
        const before = await Deno.readTextFile(join(ROOT, file)).catch(() => null);
        if (before === now) continue;
        if (before === null) {
          assert.ok(
            file.startsWith(`lib/features/${NAME}/`) || file.startsWith(`tests/features/${NAME}/`),
            `a new file outside the feature's folders: ${file}`,
          );
          continue;
        }
        changed.push(file);
        const { added, removed } = lineChanges(before, now);
        assert.deepEqual(removed, [], `${file}: lines removed`);
        const entries = added.filter((l) => !l.startsWith("import "));
        assert.equal(entries.length, 1, `${file}: one entry, not ${JSON.stringify(added)}`);
        assert.ok(added.length <= 2, `${file}: an entry and its import at most`);
      }
      assert.deepEqual(changed.sort(), [paths, routes, tools].sort());

      // The copy holds the rules, type-checks, and serves the feature.
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "task",
          "--quiet",
          "test:file",
          "tests/architecture_test.ts",
          "tests/paths_test.ts",
          `tests/features/${NAME}/notes_test.ts`,
        ],
        cwd: copy,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      assert.equal(run.code, 0, out);
      assert.match(out, /\[notes\] its tool writes to its store and its page reads it \.\.\. ok/);
      assert.doesNotMatch(out, /FAILED/);
    } finally {
      await Deno.remove(copy, { recursive: true });
    }
  },
});
