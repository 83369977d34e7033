/**
 * Server-side request forgery, through every entry point a URL has today:
 * 1. the body of POST /api/scan and the arguments of the MCP tool scan_site (IP literals in every notation, IPv6 forms, userinfo, schemes,
 *    IDN homographs, names that resolve to private addresses);
 * 2. what a scanned site answers: redirects of the home page and of each file, robots.txt
 *    `Sitemap:` lines, llms.txt links, links and assets in the page;
 * 3. what the off-site services answer (Common Crawl `cdx-api`, Wikidata P856, Wikipedia links);
 * 4. DNS rebinding between the API's check and the worker's connect.
 *
 * Counting listeners wait at 127.0.0.1, 127.0.0.2 and [::1] (same port, and 80/443 when the
 * process may bind them); a connect spy refuses and records any socket to a non-loopback address.
 * The suite ends by asserting that no listener accepted a connection, that no connection was even
 * attempted to a sentinel port, and that the only loopback connections were to the SCAN_RESOLVE
 * servers. Private non-loopback targets (10.x, 169.254.169.254, fd00:ec2::254, ...) are proven
 * refused before connecting: the spy would have recorded the attempt.
 *
 * The same refusal table is replayed through MCP (`POST /mcp`, tool `scan_site`). To extend: the
 * web form (the same body with a challenge token), and any new place that fetches a URL.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { createGuardedFetcher } from "../../lib/kit/net/guarded_fetch.ts";
import { ScanRecordSchema } from "../../lib/engines/visibility/record.ts";
import { installConnectSpy, isLoopbackHost, startSentinels } from "./helpers/net_guard.ts";
import { lookupSpy, PIPELINE, type SecurityEnv, startSecurityEnv } from "./helpers/security_env.ts";
import { decentPage, html, redirect, robotsTxt, startSiteServer, text } from "./helpers/sites.ts";

/** Private, loopback and otherwise non-public answers of the fake DNS. */
const PRIVATE_DNS: Record<string, string[]> = {
  "loopback.evil.example": ["127.0.0.1"],
  "loopback2.evil.example": ["127.0.0.2"],
  "v6loopback.evil.example": ["::1"],
  "ten.evil.example": ["10.0.0.1"],
  "oneseventwo.evil.example": ["172.16.5.4"],
  "oneninetwo.evil.example": ["192.168.1.20"],
  "metadata.evil.example": ["169.254.169.254"],
  "metadata.google.internal": ["169.254.169.254"],
  "ec2v6.evil.example": ["fd00:ec2::254"],
  "cgnat.evil.example": ["100.64.0.7"],
  "zero.evil.example": ["0.0.0.0"],
  "ula.evil.example": ["fc00::5"],
  "linklocal6.evil.example": ["fe80::1"],
  "mapped.evil.example": ["::ffff:127.0.0.1"],
  "nat64.evil.example": ["64:ff9b::a9fe:a9fe"],
  "sixtofour.evil.example": ["2002:a9fe:a9fe::1"],
  "teredo.evil.example": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
  "compat.evil.example": ["::127.0.0.1"],
  "mixed.evil.example": ["93.184.216.34", "10.0.0.1"],
  "mixed6.evil.example": ["2606:2800:220:1:248:1893:25c8:1946", "::1"],
  "multicast.evil.example": ["224.0.0.251"],
  "broadcast.evil.example": ["255.255.255.255"],
  "reserved.evil.example": ["240.0.0.1"],
  "benchmark.evil.example": ["198.18.0.1"],
  "sitelocal6.evil.example": ["fec0::1"],
  "127.0.0.1.nip.io": ["127.0.0.1"],
  "169.254.169.254.nip.io": ["169.254.169.254"],
  // Not canonical IP text: must never be handed to connect() as a name to resolve again.
  "decimal.evil.example": ["2130706433"],
  "empty.evil.example": [],
};

/** The only public address the fake DNS ever gives (TEST-NET-like; the spy refuses it). */
const PUBLIC_IP = "93.184.216.34";

interface CaseResult {
  label: string;
  ok: boolean;
  detail: string;
}

Deno.test({
  name: "[security/ssrf] no URL from any entry point reaches loopback, private or metadata",
  fn: async (t) => {
    const sentinels = startSentinels();
    const spy = installConnectSpy();
    const P = sentinels.port;
    const results: CaseResult[] = [];
    const record = (label: string, ok: boolean, detail = "") => results.push({ label, ok, detail });
    const sites = startSiteServer();
    const allowedPorts = new Set<number>([sites.port]);
    const envs: SecurityEnv[] = [];
    let acceptedByCases = -1;
    /** Every URL the scan body refuses: [group, label, url]; replayed through MCP. */
    const refusals: [string, string, string][] = [];
    let ipCounter = 0;
    const nextIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;
    try {
      // ---------------------------------------------------------------------------------------
      await t.step(
        "POST /api/scan bodies: every notation of a non-public target is a 400",
        async () => {
          const dns = lookupSpy(
            PRIVATE_DNS,
            (name) => /^public\d*\.example$/.test(name) ? [PUBLIC_IP] : null,
          );
          sites.route("bank.test", (_r, { host }) => html(decentPage(host)));
          const env = await startSecurityEnv({
            lookup: dns.lookup,
            scanResolve: sites.scanResolve(["bank.test"]),
          });
          envs.push(env);
          allowedPorts.add(env.offSite.port).add(env.turnstile.port);
          const literal: [string, string][] = [
            ["IPv4 loopback with the sentinel port", `http://127.0.0.1:${P}/`],
            ["127.0.0.2", `http://127.0.0.2:${P}/`],
            ["IPv6 loopback", `http://[::1]:${P}/`],
            ["bare 127.0.0.1", "127.0.0.1"],
            ["short form 127.1", `http://127.1:${P}/`],
            ["short form 127.0.1", "http://127.0.1/"],
            ["decimal 2130706433", `http://2130706433:${P}/`],
            ["hex 0x7f000001", "http://0x7f000001/"],
            ["dotted hex 0x7f.0.0.1", "http://0x7f.0.0.1/"],
            ["octal 0177.0.0.1", "http://0177.0.0.1/"],
            ["octal 017700000001", "http://017700000001/"],
            ["zero-padded 127.000.000.001", "http://127.000.000.001/"],
            ["trailing dot 127.0.0.1.", "http://127.0.0.1./"],
            ["percent-encoded %31%32%37.0.0.1", "http://%31%32%37.0.0.1/"],
            ["fullwidth digits", "１２７.０.０.１"],
            ["ideographic full stops", "127。0。0。1"],
            ["enclosed digits", "http://①②⑦.0.0.1/"],
            ["tab inside the host", "http://127.0.\t0.1/"],
            ["scheme-relative //127.0.0.1", `//127.0.0.1:${P}`],
            ["0.0.0.0", `http://0.0.0.0:${P}/`],
            ["0", "http://0/"],
            ["IPv6 unspecified [::]", "http://[::]/"],
            ["IPv6 loopback spelled out", "http://[0:0:0:0:0:0:0:1]/"],
            ["IPv4-mapped [::ffff:127.0.0.1]", `http://[::ffff:127.0.0.1]:${P}/`],
            ["IPv4-mapped hex [::ffff:7f00:2]", "http://[::ffff:7f00:2]/"],
            ["IPv4-mapped metadata", "http://[::ffff:169.254.169.254]/"],
            ["IPv4-compatible [::127.0.0.1]", "http://[::127.0.0.1]/"],
            ["NAT64 loopback", "http://[64:ff9b::7f00:1]/"],
            ["NAT64 metadata", "http://[64:ff9b::169.254.169.254]/"],
            ["6to4 loopback", "http://[2002:7f00:1::]/"],
            ["AWS IPv6 metadata fd00:ec2::254", "http://[fd00:ec2::254]/latest/meta-data/"],
            ["IPv6 link-local with zone", "http://[fe80::1%25lo]/"],
            ["IPv6 ULA", "http://[fc00::1]/"],
            ["cloud metadata 169.254.169.254", "http://169.254.169.254/latest/meta-data/iam/"],
            ["metadata in hex", "http://0xa9fea9fe/"],
            ["metadata in decimal", "http://2852039166/"],
            ["metadata in octal", "http://0251.0376.0251.0376/"],
            ["10/8", "http://10.0.0.1/"],
            ["172.16/12", "http://172.16.0.1/"],
            ["192.168/16", "http://192.168.0.1/"],
            ["CGNAT 100.64/10", "http://100.64.0.1/"],
            ["host:port without scheme", "127.0.0.1:80"],
          ];
          const userinfo: [string, string][] = [
            ["public@127.0.0.1", `http://public.example@127.0.0.1:${P}/`],
            ["user:pass@127.0.0.1", "http://public.example:secret@127.0.0.1/"],
            ["user@[::1]", `http://user@[::1]:${P}/`],
            ["127.0.0.1@public (userinfo refused)", `http://127.0.0.1:${P}@public.example/`],
            ["encoded @ in the host", "http://public.example%40127.0.0.1/"],
          ];
          const schemes: [string, string][] = [
            ["file:", "file:///etc/passwd"],
            ["gopher:", `gopher://127.0.0.1:${P}/_GET`],
            ["ftp:", "ftp://127.0.0.1/"],
            ["dict:", "dict://127.0.0.1:11211/stat"],
            ["ldap:", "ldap://127.0.0.1/"],
            ["javascript:", "javascript:fetch('http://127.0.0.1')"],
            ["data:", "data:text/html,<script>alert(1)</script>"],
            ["ws:", `ws://127.0.0.1:${P}/`],
            ["jar:", "jar:http://127.0.0.1!/"],
            ["view-source:", "view-source:http://127.0.0.1/"],
            ["http: without slashes", "http:127.0.0.1"],
            ["https: with backslashes", "https:\\\\127.0.0.1"],
          ];
          const localNames: [string, string][] = [
            ["localhost", "localhost"],
            ["localhost.", "localhost."],
            ["a .localhost name", "foo.localhost"],
            ["enclosed-letter localhost", "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ"],
          ];
          const resolving = Object.keys(PRIVATE_DNS).map((name): [string, string] => [
            `a name resolving to ${PRIVATE_DNS[name].join(", ") || "nothing"}`,
            name,
          ]);
          const homographs: [string, string][] = [
            ["Cyrillic а in bank.test", "bаnk.test"],
            ["Cyrillic е in the TLD", "bank.tеst"],
            ["its punycode spelled out", "xn--bnk-6cd.test"],
            ["Greek ο homograph", "bank.tοst"],
          ];
          const before = await env.kv.get(["visibility", "inflight"]); // no such key; a baseline
          assert.equal(before.value, null);
          for (
            const [group, cases] of Object.entries({
              literal,
              userinfo,
              schemes,
              localNames,
              resolving,
              homographs,
            })
          ) {
            for (const [label, url] of cases) {
              refusals.push([group, label, url]);
              const asked = dns.asked.length;
              const res = await env.scan({ url }, { auth: `Bearer ${PIPELINE}`, ip: nextIp() });
              const body = await res.json();
              const ok = res.status === 400 && typeof body.error === "string";
              // IP literals, userinfo and schemes are refused before any DNS question.
              const noDns = group === "resolving" || group === "homographs" ||
                dns.asked.length === asked;
              record(
                `POST ${group}: ${label}`,
                ok && noDns,
                `${res.status} ${JSON.stringify(body)}`,
              );
            }
          }
          // Homographs went to DNS under their punycode name, never to bank.test's SCAN_RESOLVE.
          assert.ok(dns.asked.includes("xn--bnk-6cd.test"), dns.asked.join(" "));
          assert.equal(sites.requestsTo("bank.test").length, 0);
          // Parser differentials: whatever precedes the real host is path, fragment or query, so the
          // scan that is admitted is of the public host, never of 127.0.0.1.
          const differentials: [string, string][] = [
            ["backslash before @", `http://public.example\\@127.0.0.1:${P}/`],
            ["# before @", "http://public2.example#@127.0.0.1/"],
            ["? before @", "http://public3.example?@127.0.0.1/"],
            ["/ before @", "http://public4.example/@127.0.0.1/"],
            ["fullwidth letters fold to the real name", "ｂａｎｋ.test"],
          ];
          for (const [label, url] of differentials) {
            const res = await env.scan({ url }, { auth: `Bearer ${PIPELINE}`, ip: nextIp() });
            const body = await res.json();
            const expected = label.startsWith("fullwidth")
              ? "bank.test"
              : new URL(url.replace("\\", "/")).hostname;
            record(
              `POST differential: ${label}`,
              res.status === 202 && body.domain === expected,
              `${res.status} ${JSON.stringify(body)}`,
            );
            await env.kv.delete(["visibility", "inflight", expected]);
          }
          // Nothing was admitted but the differentials (each deleted above).
          const inflight = [];
          for await (const e of env.kv.list({ prefix: ["visibility", "inflight"] })) {
            inflight.push(e);
          }
          assert.deepEqual(inflight, []);
        },
      );

      await t.step("MCP scan_site arguments: the same URLs are refused the same way", async () => {
        const env = envs[0];
        for (const [group, label, url] of refusals) {
          const res = await env.app.request("/mcp", {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "x-forwarded-for": nextIp(),
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "tools/call",
              params: { name: "scan_site", arguments: { url } },
            }),
          });
          const text = await res.text();
          let refused = res.status >= 400 && res.status < 500;
          if (res.status === 200) {
            const body = JSON.parse(text);
            refused = body.result?.isError === true || body.error !== undefined;
          }
          record(`MCP ${group}: ${label}`, refused, `${res.status} ${text.slice(0, 200)}`);
        }
        const inflight = [];
        for await (const e of env.kv.list({ prefix: ["visibility", "inflight"] })) {
          inflight.push(e);
        }
        assert.deepEqual(inflight, [], "MCP admitted nothing");
      });

      // ---------------------------------------------------------------------------------------
      // The worker environment: the real scanner, every host name mapped to loopback servers, and
      // a resolver that answers only private addresses (or public then private: rebinding).
      const redirectTargets: [string, string, number][] = [
        ["127.0.0.1 (sentinel)", `http://127.0.0.1:${P}/`, 302],
        ["127.0.0.2", `http://127.0.0.2:${P}/`, 302],
        ["[::1]", `http://[::1]:${P}/`, 302],
        ["localhost", `http://localhost:${P}/`, 302],
        ["a .localhost name", `http://foo.localhost:${P}/`, 302],
        ["127.1", `http://127.1:${P}/`, 301],
        ["decimal", `http://2130706433:${P}/`, 301],
        ["hex", `http://0x7f000001:${P}/`, 303],
        ["IPv4-mapped", `http://[::ffff:127.0.0.1]:${P}/`, 302],
        ["NAT64", `http://[64:ff9b::7f00:1]:${P}/`, 302],
        ["0.0.0.0", `http://0.0.0.0:${P}/`, 302],
        ["metadata", "http://169.254.169.254/latest/meta-data/", 302],
        ["IPv6 metadata", "http://[fd00:ec2::254]/latest/meta-data/", 302],
        ["10.0.0.1", "http://10.0.0.1/", 302],
        ["CGNAT", "http://100.64.0.1/", 302],
        ["a name resolving to loopback", `http://loopback.evil.example:${P}/`, 302],
        ["a name resolving to metadata", "http://metadata.evil.example/", 302],
        ["a name with one private answer", "http://mixed.evil.example/", 302],
        ["userinfo", `http://user@127.0.0.1:${P}/`, 302],
        ["file:", "file:///etc/passwd", 302],
        ["gopher:", `gopher://127.0.0.1:${P}/`, 302],
        ["protocol-relative", `//127.0.0.1:${P}/`, 302],
        ["307 to loopback", `http://127.0.0.1:${P}/`, 307],
        ["308 to [::1]", `http://[::1]:${P}/`, 308],
      ];
      const worker = {
        redirectHosts: redirectTargets.map((_, i) => `r${i}.hostile.test`),
        chain: ["chain.hostile.test", "chain2.hostile.test"],
        sub: "sub.hostile.test",
        sitemapHosts: [] as string[],
        links: "links.hostile.test",
        off: "off.hostile.test",
      };
      redirectTargets.forEach(([, location, status], i) =>
        sites.route(worker.redirectHosts[i], () => redirect(location, status))
      );
      sites.route("chain.hostile.test", () => redirect("http://chain2.hostile.test/next"));
      sites.route("chain2.hostile.test", () => redirect(`http://127.0.0.2:${P}/`));
      // Each file of an otherwise decent site redirects somewhere it must not go.
      const subRedirects: Record<string, string> = {
        "/robots.txt": `http://127.0.0.1:${P}/robots.txt`,
        "/sitemap.xml": "http://169.254.169.254/sitemap.xml",
        "/llms.txt": `http://[::1]:${P}/llms.txt`,
        "/llms-full.txt": "http://ten.evil.example/llms-full.txt",
      };
      sites.route(
        worker.sub,
        (_r, { host, url }) =>
          subRedirects[url.pathname]
            ? redirect(subRedirects[url.pathname])
            : html(decentPage(host)),
      );
      const sitemapLines: [string, string][] = [
        ["127.0.0.1", `http://127.0.0.1:${P}/sitemap.xml`],
        ["127.0.0.2", `http://127.0.0.2:${P}/sitemap.xml`],
        ["[::1]", `http://[::1]:${P}/sitemap.xml`],
        ["localhost", `http://localhost:${P}/sitemap.xml`],
        ["metadata", "http://169.254.169.254/latest/sitemap.xml"],
        ["IPv6 metadata", "http://[fd00:ec2::254]/sitemap.xml"],
        ["a name resolving to 10.0.0.1", "http://ten.evil.example/sitemap.xml"],
        ["a name resolving to loopback", `http://loopback.evil.example:${P}/sitemap.xml`],
        ["protocol-relative", `//127.0.0.1:${P}/sitemap.xml`],
        ["file:", "file:///etc/passwd"],
        ["userinfo", `http://sm.hostile.test@127.0.0.1:${P}/sitemap.xml`],
      ];
      sitemapLines.forEach(([, line], i) => {
        const host = `sm${i}.hostile.test`;
        worker.sitemapHosts.push(host);
        sites.route(
          host,
          (_r, { url }) =>
            url.pathname === "/robots.txt" ? text(robotsTxt(line)) : url.pathname === "/sitemap.xml"
              // A sitemap index naming a child on loopback: sitemaps are read, never followed.
              ? text(
                `<?xml version="1.0"?><sitemapindex><sitemap><loc>http://127.0.0.1:${P}/child.xml</loc></sitemap></sitemapindex>`,
                200,
                "application/xml",
              )
              : html(decentPage(host)),
        );
      });
      const linkTargets = [
        `http://127.0.0.1:${P}/a`,
        `http://127.0.0.2:${P}/b`,
        `http://[::1]:${P}/c`,
        "http://169.254.169.254/latest/meta-data/",
        "file:///etc/passwd",
      ];
      const pageLinks = `
        <link rel="alternate" type="text/markdown" href="http://127.0.0.1:${P}/llms.txt">
        <link rel="icon" href="http://127.0.0.2:${P}/favicon.ico">
        <img src="http://[::1]:${P}/x.png" alt="x">
        <script src="http://127.0.0.1:${P}/app.js"></script>
        <iframe src="http://169.254.169.254/"></iframe>
        <a href="http://127.0.0.1:${P}/about">About</a>
        <meta property="og:image" content="http://127.0.0.2:${P}/og.png">
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite",
          "url":"http://127.0.0.1:${P}/","sameAs":["http://[::1]:${P}/"]}</script>`;
      sites.route(worker.links, (_r, { host, url }) =>
        url.pathname === "/llms.txt"
          ? text(
            `# Links\n\n> Links that must never be fetched.\n\n## Pages\n\n${
              linkTargets.map((l, i) => `- [Link ${i}](${l})`).join("\n")
            }\n`,
          )
          : url.pathname === "/"
          ? html(decentPage(host, pageLinks))
          : html("<title>404</title>", 404));
      sites.route(worker.off, (_r, { host }) => html(decentPage(host)));
      const offSiteScenario = {
        commonCrawl: {
          crawls: [
            {
              id: "CC-MAIN-2025-08",
              "cdx-api": `http://127.0.0.1:${P}/CC-MAIN-2025-08-index`,
              timegate: `http://[::1]:${P}/`,
            },
            { id: `CC-MAIN-2099-01/../../@127.0.0.1:${P}`, "cdx-api": `http://127.0.0.2:${P}/` },
            { id: "CC-MAIN-2098-01?x=", "cdx-api": "http://169.254.169.254/latest/" },
          ],
          captures: { "off.hostile.test": 5 },
        },
        wikidata: {
          items: [{
            id: "Q4242",
            label: "off.hostile.test",
            websites: [`http://127.0.0.1:${P}/`, "https://off.hostile.test/"],
            enwiki: "Off Hostile",
          }],
        },
        wikipedia: {
          articles: [{
            title: "Off Hostile",
            text: "off.hostile.test",
            links: [`http://[::1]:${P}/`, "https://off.hostile.test/"],
          }],
        },
      };
      const dns = lookupSpy({
        ...PRIVATE_DNS,
        // Rebinding: the API's check gets a public answer, every later question a private one.
        "rebind.evil.example": (n) => n === 0 ? [PUBLIC_IP] : ["127.0.0.1"],
        "rebind6.evil.example": (n) => n === 0 ? [PUBLIC_IP] : ["::1"],
        "rebindmeta.evil.example": (n) => n === 0 ? [PUBLIC_IP] : ["169.254.169.254"],
        // Flip-flop: public and private answers alternate, question after question.
        "flipflop.evil.example": (n) => n % 2 === 0 ? [PUBLIC_IP] : ["127.0.0.1"],
      });
      const allHosts = [
        ...worker.redirectHosts,
        ...worker.chain,
        worker.sub,
        ...worker.sitemapHosts,
        worker.links,
        worker.off,
      ];
      const env = await startSecurityEnv({
        lookup: dns.lookup,
        worker: true,
        scanResolve: sites.scanResolve(allHosts),
        offSite: offSiteScenario,
      });
      envs.push(env);
      allowedPorts.add(env.offSite.port).add(env.turnstile.port);
      const post = async (domain: string) => {
        const res = await env.scan({ url: domain }, { auth: `Bearer ${PIPELINE}`, ip: nextIp() });
        const body = await res.json();
        assert.equal(res.status, 202, `${domain}: ${JSON.stringify(body)}`);
      };
      const finished = async (domain: string) => {
        const record = ScanRecordSchema.parse(await env.waitForRecord(domain));
        const stored = await env.store.getScan(domain);
        return { record, failure: stored?.failure ?? null };
      };

      await t.step("redirects of the home page to non-public targets fail the scan", async () => {
        for (const h of [...worker.redirectHosts, "chain.hostile.test"]) await post(h);
        const labels = [
          ...redirectTargets.map(([l, , s]) => `${s} -> ${l}`),
          "two hops -> 127.0.0.2",
        ];
        const hosts = [...worker.redirectHosts, "chain.hostile.test"];
        for (const [i, host] of hosts.entries()) {
          const { record: r, failure } = await finished(host);
          const ok = r.status === "failed" && r.result === null &&
            /not public|localhost|Only http|user name|not a valid URL/i.test(failure ?? "");
          record(`redirect: ${labels[i]}`, ok, `${r.status}: ${failure}`);
        }
      });

      await t.step(
        "robots.txt, sitemap, llms.txt and llms-full.txt redirects are not followed",
        async () => {
          await post(worker.sub);
          const { record: r } = await finished(worker.sub);
          for (const path of Object.keys(subRedirects)) {
            record(`file redirect: ${path} -> ${subRedirects[path]}`, r.status === "ok", r.status);
          }
          // robots.txt could not be read: the report says so rather than claiming anything.
          const robots = r.result?.pillars.flatMap((p) => p.signals)
            .find((s) => s.id.includes("robots"));
          assert.ok(robots, "a robots.txt signal exists");
        },
      );

      await t.step(
        "robots.txt Sitemap: lines naming non-public targets are not fetched",
        async () => {
          for (const h of worker.sitemapHosts) await post(h);
          for (const [i, host] of worker.sitemapHosts.entries()) {
            const { record: r } = await finished(host);
            record(`Sitemap: line -> ${sitemapLines[i][0]}`, r.status === "ok", r.status);
          }
          record("sitemap index child on loopback (never followed)", true, "checked by sentinels");
        },
      );

      await t.step("llms.txt links, page links and assets are never fetched", async () => {
        await post(worker.links);
        const { record: r } = await finished(worker.links);
        for (const l of linkTargets) record(`llms.txt link -> ${l}`, r.status === "ok", r.status);
        for (
          const what of [
            "link rel=alternate",
            "icon",
            "img",
            "script",
            "iframe",
            "a href",
            "og:image",
            "JSON-LD url/sameAs",
          ]
        ) {
          record(`page ${what} -> loopback`, r.status === "ok", r.status);
        }
        // The site audit (docs/site-audit.md) reads the page's own-host About and Contact links;
        // nothing else on the site is fetched, and nothing anywhere else (the sentinels above).
        const paths = sites.requestsTo(worker.links).map((q) => q.path);
        assert.ok(
          paths.every((p) =>
            [
              "/",
              "/robots.txt",
              "/sitemap.xml",
              "/llms.txt",
              "/llms-full.txt",
              "/about",
              "/contact",
            ]
              .includes(p)
          ),
          paths.join(" "),
        );
      });

      await t.step("off-site answers naming private URLs are never fetched", async () => {
        await post(worker.off);
        const { record: r } = await finished(worker.off);
        const cc = env.offSite.requestsTo("commoncrawl.test").map((q) => q.path);
        const indexQueries = cc.filter((p) => p.includes("-index"));
        const ok = r.status === "ok" && indexQueries.length > 0 &&
          indexQueries.every((p) => p.startsWith("/CC-MAIN-2025-08-index?"));
        for (
          const what of [
            "Common Crawl cdx-api -> 127.0.0.1",
            "Common Crawl timegate -> [::1]",
            "Common Crawl crawl id with a path and @127.0.0.1",
            "Common Crawl cdx-api -> 127.0.0.2",
            "Common Crawl cdx-api -> metadata",
            "Wikidata P856 -> 127.0.0.1",
            "Wikipedia external link -> [::1]",
          ]
        ) record(`off-site: ${what}`, ok, `${r.status} ${cc.join(" ")}`);
        assert.equal(r.offSite?.commonCrawl.status, "found");
        assert.ok(!String(r.offSite?.commonCrawl.url).includes(String(P)));
      });

      await t.step("DNS rebinding between the API's check and the worker's connect", async () => {
        for (
          const name of ["rebind.evil.example", "rebind6.evil.example", "rebindmeta.evil.example"]
        ) {
          await post(name); // the API's check saw a public address
          const { record: r, failure } = await finished(name);
          record(
            `rebinding: ${name}`,
            r.status === "failed" && /not public/.test(failure ?? ""),
            `${r.status}: ${failure}`,
          );
        }
        await post("flipflop.evil.example");
        const { record: r } = await finished("flipflop.evil.example");
        // Alternating answers: whatever happened, every connect went to an address a lookup
        // returned and the guard checked (public), never to a name resolved again by the OS.
        const flip = spy.attempts.filter((a) =>
          !allowedPorts.has(a.port) || !isLoopbackHost(a.host)
        );
        record(
          "rebinding: alternating public/private answers",
          flip.every((a) => a.host === PUBLIC_IP),
          `${r.status}; attempts: ${JSON.stringify(flip)}`,
        );
      });

      await t.step(
        "nothing reached a sentinel; only the SCAN_RESOLVE servers were connected to",
        () => {
          acceptedByCases = sentinels.total();
          assert.equal(acceptedByCases, 0, JSON.stringify(sentinels.accepted()));
          assert.deepEqual(
            spy.toPort(P),
            [],
            "no connection was even attempted to a sentinel port",
          );
          const unexpected = spy.attempts.filter((a) =>
            !(isLoopbackHost(a.host) && allowedPorts.has(a.port)) && a.host !== PUBLIC_IP
          );
          assert.deepEqual(unexpected, [], "every connection went to a SCAN_RESOLVE server");
          // Private non-loopback targets: refused before connecting (the spy saw no attempt).
          assert.deepEqual(spy.offLoopback().filter((a) => a.host !== PUBLIC_IP), []);
          console.log(
            `connect attempts: ${spy.attempts.length} (to SCAN_RESOLVE servers: ${
              spy.attempts.filter((a) => allowedPorts.has(a.port)).length
            }, to the public test address, refused by the spy: ${
              spy.attempts.filter((a) => a.host === PUBLIC_IP).length
            }); DNS questions: ${dns.asked.length}`,
          );
        },
      );

      await t.step("control: the sentinels and the spy do catch what gets through", async () => {
        // A name mapped straight to a sentinel (what a guard bypass would look like) is counted.
        const fetcher = createGuardedFetcher({
          userAgent: "control",
          resolve: new Map([["canary.test", { host: "127.0.0.2", port: P }]]),
          requestTimeoutMs: 1000,
        });
        await fetcher.fetch("http://canary.test/").catch(() => {});
        await fetcher.close();
        for (let i = 0; i < 100 && sentinels.total() === 0; i++) {
          await new Promise((r) => setTimeout(r, 10));
        }
        assert.equal(sentinels.accepted()[`127.0.0.2:${P}`], 1);
        // A socket to a private address is refused by the spy itself, and recorded.
        assert.throws(() => net.connect({ host: "10.0.0.1", port: 80 }), /connect spy/);
        assert.equal(spy.offLoopback().at(-1)?.host, "10.0.0.1");
      });
    } finally {
      spy.restore();
      for (const env of envs) await env.close();
      await sites.close();
      await sentinels.close();
    }
    const failed = results.filter((r) => !r.ok);
    console.log(
      `SSRF: ${results.length} cases, ${failed.length} failed; sentinels at ${
        sentinels.bound.join(", ")
      } accepted ${acceptedByCases} connections from the cases (and 1 from the control)`,
    );
    assert.deepEqual(failed, [], "every SSRF case is refused");
    assert.ok(results.length >= 60, `only ${results.length} cases`);
  },
});
