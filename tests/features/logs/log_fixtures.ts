/**
 * Fixture logs written by the tests: one scenario of requests (crawlers verified, spoofed and
 * unverifiable, people, a disallowed path) rendered in every format the reader knows, each from
 * its own documentation's field list (lib/features/logs/formats.ts names the pages). Address lists
 * and DNS answers are our own, on documentation ranges (RFC 5737, RFC 3849).
 */
import fc from "fast-check";

/** One request of the scenario. */
export interface Req {
  time: number;
  ip: string;
  method: string;
  path: string;
  status: number;
  bytes: number;
  ua: string;
  host: string;
}

const T0 = Date.UTC(2026, 10, 30, 8, 0, 0);
const at = (minutes: number) => T0 + minutes * 60_000;
const UA = {
  gpt:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  search:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot",
  claude: "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  google: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  cc: "CCBot/2.0 (https://commoncrawl.org/faq/)",
  firefox: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  safari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
  imageBot: "Googlebot-Image/1.0",
};

/** People's addresses: none may appear in anything stored. */
export const HUMAN_IPS = ["198.51.100.77", "198.51.100.78", "2001:db8:beef::1"];

const req = (
  m: number,
  ip: string,
  path: string,
  status: number,
  bytes: number,
  ua: string,
): Req => ({
  time: at(m),
  ip,
  method: "GET",
  path,
  status,
  bytes,
  ua,
  host: "shop.test",
});

/** The scenario, in time order (two days). */
export const SCENARIO: Req[] = [
  req(0, "192.0.2.10", "/", 200, 1000, UA.gpt),
  req(1, HUMAN_IPS[0], "/blog/gptbot-guide?utm=1", 200, 500, UA.firefox),
  req(2, "192.0.2.11", "/blog/a", 200, 2000, UA.gpt),
  req(3, "192.0.2.10", "/private/x", 200, 300, UA.gpt),
  req(4, "203.0.113.7", "/", 403, 0, UA.gpt),
  req(5, "203.0.113.8", "/blog/a", 429, 10, UA.gpt),
  req(6, "192.0.2.40", "/blog/a", 301, 0, UA.search),
  req(7, HUMAN_IPS[1], "/", 200, 800, UA.safari),
  req(8, "192.0.2.66", "/about", 200, 700, UA.google),
  req(9, "203.0.113.66", "/about", 200, 700, UA.google),
  req(10, "192.0.2.90", "/", 200, 100, UA.cc),
  req(11, "192.0.2.91", "/img/a.png", 200, 50, UA.imageBot),
  req(12, "2001:db8:c1::5", "/blog/b", 500, 40, UA.claude),
  req(24 * 60 + 1, "192.0.2.12", "/blog/a", 200, 2000, UA.gpt),
  req(24 * 60 + 2, HUMAN_IPS[2], "/blog/a", 404, 20, UA.firefox),
  req(24 * 60 + 3, "203.0.113.7", "/admin", 403, 0, UA.gpt),
];

/** The robots.txt the scenario's site has. */
export const ROBOTS = "User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n";

/** Address lists in the vendors' published shape, for LOG_IP_RANGES_DIR (file name -> JSON). */
export const RANGE_FILES: Record<string, unknown> = {
  "gptbot.json": {
    creationTime: "2026-11-01T00:00:00Z",
    prefixes: [{ ipv4Prefix: "192.0.2.0/27" }],
  },
  "searchbot.json": {
    creationTime: "2026-11-01T00:00:00Z",
    prefixes: [{ ipv4Prefix: "192.0.2.32/28" }],
  },
  "bots.json": {
    creationTime: "2026-11-02T00:00:00Z",
    prefixes: [{ ipv4Prefix: "192.0.2.128/25" }, { ipv6Prefix: "2001:db8:c1::/48" }],
  },
};

/** DNS answers: Googlebot's genuine address, and one whose name is not Google's. */
export const DNS = {
  reverse: (ip: string) =>
    Promise.resolve(
      ip === "192.0.2.66"
        ? ["crawl-192-0-2-66.googlebot.com."]
        : ip === "203.0.113.66"
        ? ["evil.example."]
        : [],
    ),
  forward: (name: string) =>
    Promise.resolve(name === "crawl-192-0-2-66.googlebot.com" ? ["192.0.2.66"] : []),
};

/**
 * What the scenario must give, read with RANGE_FILES and DNS: per crawler, hits by verdict, and
 * the verified status mix.
 */
export const EXPECTED = {
  GPTBot: { verified: 4, spoofed: 3, unverifiable: 0, status: { "2xx": 4 } },
  "OAI-SearchBot": { verified: 1, spoofed: 0, unverifiable: 0, status: { "3xx": 1 } },
  Googlebot: { verified: 1, spoofed: 1, unverifiable: 0, status: { "2xx": 1 } },
  CCBot: { verified: 0, spoofed: 0, unverifiable: 1, status: {} },
  ClaudeBot: { verified: 1, spoofed: 0, unverifiable: 0, status: { "5xx": 1 } },
} as const;
/** Lines naming no registry crawler (people, and Googlebot-Image, which is not Googlebot). */
export const OTHER_LINES = 4;

const clfTime = (ms: number) => {
  const d = new Date(ms);
  const mon = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
  ][d.getUTCMonth()];
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${
    p(d.getUTCMinutes())
  }:${p(d.getUTCSeconds())} +0000`;
};
const iso = (ms: number) => new Date(ms).toISOString();
const esc = (s: string) => s.replaceAll('"', '\\"');

/** The scenario in each format, as the text of a log file. */
export const RENDER: Record<string, (rs: Req[]) => string> = {
  combined: (rs) =>
    rs.map((r) =>
      `${r.ip} - - [${clfTime(r.time)}] "${r.method} ${r.path} HTTP/1.1" ${r.status} ${
        r.bytes || "-"
      } "-" "${esc(r.ua)}"`
    ).join("\n") + "\n",
  fastly: (rs) => RENDER.combined(rs),
  nginx_json: (rs) =>
    rs.map((r) =>
      JSON.stringify({
        time_iso8601: iso(r.time),
        remote_addr: r.ip,
        request: `${r.method} ${r.path} HTTP/1.1`,
        status: String(r.status),
        body_bytes_sent: r.bytes,
        http_referer: "",
        http_user_agent: r.ua,
        host: r.host,
      })
    ).join("\n"),
  caddy: (rs) =>
    rs.map((r) =>
      JSON.stringify({
        level: "info",
        ts: r.time / 1000,
        logger: "http.log.access.log0",
        msg: "handled request",
        request: {
          remote_ip: r.ip,
          client_ip: r.ip,
          proto: "HTTP/2.0",
          method: r.method,
          host: r.host,
          uri: r.path,
          headers: { "User-Agent": [r.ua], Accept: ["*/*"] },
        },
        duration: 0.001,
        size: r.bytes,
        status: r.status,
      })
    ).join("\n"),
  w3c: (rs) =>
    "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2026-11-30 08:00:00\n" +
    "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status sc-bytes time-taken\n" +
    rs.map((r) => {
      const [path, query] = r.path.split("?");
      const [d, t] = iso(r.time).slice(0, 19).split("T");
      return `${d} ${t} 10.0.0.1 ${r.method} ${path} ${query ?? "-"} 443 - ${r.ip} ${
        r.ua.replaceAll(" ", "+")
      } - ${r.status} 0 0 ${r.bytes} 12`;
    }).join("\r\n") + "\r\n",
  cloudfront: (rs) =>
    "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken\n" +
    rs.map((r) => {
      const [path, query] = r.path.split("?");
      const [d, t] = iso(r.time).slice(0, 19).split("T");
      return [
        d,
        t,
        "FRA56-P1",
        r.bytes,
        r.ip,
        r.method,
        "d111111abcdef8.cloudfront.net",
        path,
        r.status,
        "-",
        encodeURIComponent(r.ua),
        query ?? "-",
        "-",
        "Miss",
        "abc==",
        r.host,
        "https",
        120,
        0.01,
      ].join("\t");
    }).join("\n") + "\n",
  alb: (rs) =>
    rs.map((r) =>
      `https ${iso(r.time)} app/my-lb/50dc6c495c0c9188 ${
        r.ip.includes(":") ? `[${r.ip}]` : r.ip
      }:2817 10.0.0.1:80 0.000 0.001 0.000 ${r.status} ${r.status} 34 ${r.bytes} "${r.method} https://${r.host}:443${r.path} HTTP/1.1" "${
        esc(r.ua)
      }" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "${r.host}" "-" 0 ${
        iso(r.time)
      } "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"`
    ).join("\n"),
  cloudflare: (rs) =>
    rs.map((r) =>
      JSON.stringify({
        ClientIP: r.ip,
        ClientRequestHost: r.host,
        ClientRequestMethod: r.method,
        ClientRequestURI: r.path,
        ClientRequestUserAgent: r.ua,
        EdgeEndTimestamp: r.time * 1e6 + 5e6,
        EdgeResponseBytes: r.bytes,
        EdgeResponseStatus: r.status,
        EdgeStartTimestamp: r.time * 1e6,
        RayID: "7c5b1d2f3a4e5f60",
      })
    ).join("\n"),
  vercel: (rs) =>
    // A drain's JSON batch per line, with a build log entry that is not a request.
    [
      JSON.stringify({
        id: "b1",
        deploymentId: "dpl_1",
        projectId: "prj_1",
        source: "build",
        host: "shop.test",
        timestamp: rs[0].time,
        message: "Build done",
        type: "stdout",
        level: "info",
      }),
      ...rs.map((r) =>
        JSON.stringify([{
          id: `l${r.time}`,
          deploymentId: "dpl_1",
          projectId: "prj_1",
          source: "static",
          host: r.host,
          timestamp: r.time,
          level: "info",
          proxy: {
            timestamp: r.time,
            method: r.method,
            host: r.host,
            path: r.path,
            userAgent: [r.ua],
            referer: "",
            statusCode: r.status,
            clientIp: r.ip,
            region: "fra1",
            scheme: "https",
          },
        }])
      ),
    ].join("\n"),
  netlify: (rs) =>
    rs.map((r) =>
      JSON.stringify({
        log_type: "traffic",
        timestamp: iso(r.time),
        client_ip: r.ip,
        method: r.method,
        url: `https://${r.host}${r.path}`,
        hostname: r.host,
        status_code: r.status,
        response_size: r.bytes,
        user_agent: r.ua,
        request_id: "01H",
      })
    ).join("\n"),
};

/** Writes the vendors' lists into a fresh temporary directory and returns its path. */
export async function rangeDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "log-ranges-" });
  for (const [name, body] of Object.entries(RANGE_FILES)) {
    await Deno.writeTextFile(`${dir}/${name}`, JSON.stringify(body));
  }
  return dir;
}

/** A stream of a text. */
export const streamOf = (text: string | Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> =>
  new Blob([text]).stream();

/** `s` with each letter upper- or lower-cased by the bits of `mask`. */
export function flip(s: string, mask: number): string {
  return [...s].map((c, i) => (mask >> (i % 30)) & 1 ? c.toUpperCase() : c.toLowerCase()).join("");
}

/** A registry token as an agent may hold it: whole in any case, or its first one to six characters. */
export function tokenPiece(tokens: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...tokens), fc.integer({ min: 0, max: 2 ** 30 - 1 }))
      .map(([t, m]) => flip(t, m)),
    fc.tuple(fc.constantFrom(...tokens), fc.integer({ min: 1, max: 6 }))
      .map(([t, cut]) => t.slice(0, cut)),
  );
}
