/**
 * One guarded fetcher makes every outbound request (docs/security.md, "Outbound requests"): no
 * server module other than lib/kit/net/guarded_fetch.ts (with its resolver, lib/kit/net/resolve.ts) holds
 * a way to reach the network on its own. The connection guard (lib/kit/net/conn_guard.ts) connects
 * only to the inner server it fronts. Browser code (islands/) calls our own server and is left out.
 *
 * A module that needs a request takes the fetcher (a `Fetcher`) it is given; one that imports
 * `fetch`, undici, `node:http`, a socket API or a resolver of its own fails here.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where each network primitive may appear (relative paths). */
const ALLOWED: Record<string, string[]> = {
  "undici": ["lib/kit/net/guarded_fetch.ts"],
  "node:tls": ["lib/kit/net/guarded_fetch.ts"],
  "node:net (sockets)": ["lib/kit/net/guarded_fetch.ts", "lib/kit/net/resolve.ts"],
  // lib/kit/net/crawler_dns.ts: reverse and forward lookups that check a logged crawler's address
  // (lib/features/logs/); it sends no request and opens no socket.
  "DNS": ["lib/kit/net/resolve.ts", "lib/kit/net/crawler_dns.ts"],
  "Deno.connect": ["lib/kit/net/conn_guard.ts"],
  // E-mail alerts: nodemailer connects to the operator's own SMTP server (SMTP_URL), a host from
  // the configuration, never one a user names; SMTP is not HTTP (docs/security.md).
  "SMTP (nodemailer)": ["lib/features/watch/mailer.ts"],
};

/** A module specifier in an import, a dynamic import or a require: `spec` is its pattern. */
const imported = (spec: string) =>
  new RegExp(`(?:\\bfrom|\\bimport\\s*\\(?|\\brequire\\s*\\()\\s*["'](?:npm:|node:)?${spec}["']`);

/** The network primitives a line of source may use, by name. */
const PRIMITIVES: [string, RegExp][] = [
  // `x.fetch(` and a private `#fetch(` are a member of something, not the global.
  ["fetch", /(?<![\w.$#])fetch\s*\(|globalThis\.fetch\b|\bself\.fetch\b/],
  ["undici", imported("undici(?:@[^\"']*)?(?:/[^\"']*)?")],
  ["node:http", imported("(?:https?|http2)")],
  ["node:tls", imported("tls")],
  ["node:dgram", imported("dgram")],
  ["DNS", /Deno\.resolveDns\b/],
  ["DNS", imported("dns(?:/promises)?")],
  ["Deno.connect", /Deno\.(?:connect|connectTls|startTls|connectQuic)\b/],
  ["Deno.HttpClient", /Deno\.createHttpClient\b/],
  ["WebSocket", /new\s+(?:WebSocket|EventSource)\b/],
  ["SMTP (nodemailer)", imported("nodemailer(?:@[^\"']*)?(?:/[^\"']*)?")],
];

/** A method declared as `fetch(url: string, ...)` (a Fetcher's own), not a call. */
const FETCH_DECLARATION = /^\s*(?:async\s+)?fetch\s*\(\s*\w+\s*\??:/;

/** `node:net` is fine for `isIP`; any other import of it can open a socket. */
const NODE_NET = /import\s+(.+?)\s+from\s+["'](?:node:)?net["']/;

/** The primitives used by one file's source (comments left out), as "name: line". */
export function primitivesIn(source: string): { name: string; line: string }[] {
  const found: { name: string; line: string }[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "");
  for (const raw of code.split("\n")) {
    const line = raw.replace(/(^|[^:"'])\/\/.*$/, "$1");
    for (const [name, re] of PRIMITIVES) {
      if (!re.test(line) || (name === "fetch" && FETCH_DECLARATION.test(line))) continue;
      found.push({ name, line: raw.trim() });
    }
    const net = line.match(NODE_NET);
    if (net && !/^\{\s*isIP\s*\}$/.test(net[1].trim())) {
      found.push({ name: "node:net (sockets)", line: raw.trim() });
    }
  }
  return found;
}

Deno.test("[security/outbound] the finder sees each way out, and not comments or method calls", () => {
  const names = (s: string) => primitivesIn(s).map((p) => p.name);
  assert.deepEqual(names(`const r = await fetch("https://x.test/");`), ["fetch"]);
  assert.deepEqual(names(`globalThis.fetch(url)`), ["fetch"]);
  assert.deepEqual(names(`import { request } from "undici";`), ["undici"]);
  assert.deepEqual(names(`import https from "node:https";`), ["node:http"]);
  assert.deepEqual(names(`import { lookup } from "node:dns/promises";`), ["DNS"]);
  assert.deepEqual(names(`await Deno.connect({ port: 80 })`), ["Deno.connect"]);
  assert.deepEqual(names(`import net from "node:net";`), ["node:net (sockets)"]);
  assert.deepEqual(names(`new WebSocket("wss://x.test")`), ["WebSocket"]);
  assert.deepEqual(names(`import { isIP } from "node:net";`), []);
  assert.deepEqual(names(`await fetcher.fetch(url); // fetch("x")`), []);
  assert.deepEqual(names(`/** call fetch() here */ const a = 1;`), []);
  assert.deepEqual(names(`async fetch(url: string, o: FetchOptions = {}) {`), []);
  assert.deepEqual(names(`const r = await this.#fetch(request, signal);`), []);
  assert.deepEqual(names(`if (scheme !== "http" && scheme !== "https") {`), []);
  assert.deepEqual(names(`const m = await import("node:http");`), ["node:http"]);
});

/** The server's source files under `dir` (relative to the repository root). */
async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(`${ROOT}${dir}`)) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await sources(rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

Deno.test("[security/outbound] only the guarded fetcher reaches the network from the server", async () => {
  const bad: string[] = [];
  const used = new Set<string>();
  const files = [...await sources("lib"), ...await sources("routes"), "main.ts", "mod.ts"];
  for (const file of files) {
    for (const p of primitivesIn(await Deno.readTextFile(`${ROOT}${file}`))) {
      if ((ALLOWED[p.name] ?? []).includes(file)) used.add(`${p.name} in ${file}`);
      else bad.push(`${file}: ${p.name}: ${p.line}`);
    }
  }
  assert.ok(files.length > 100, `${files.length} files read`);
  assert.deepEqual(bad, []);
  // The allowed places really are the ones (a stale entry is removed, so the list only shrinks).
  const stale = Object.entries(ALLOWED).flatMap(([name, where]) =>
    where.filter((file) => !used.has(`${name} in ${file}`)).map((file) => `${name} in ${file}`)
  );
  assert.deepEqual(stale, []);
});
