/**
 * GET /docs: how to use the API, keys, limits and MCP, with curl examples built for this server's
 * own address. The machine-readable version is /openapi.json.
 */
import type { ComponentChildren, VNode } from "preact";
import { siteOrigin } from "../lib/kit/web/context.ts";
import type { ServerDeps } from "../lib/app/deps.ts";
import type { RouteDef, RouteHandlers } from "../lib/kit/web/route.ts";
import { LIMITS } from "../lib/kit/limits/limits.ts";
import {
  ASSETS,
  badgePath,
  PATHS,
  reportJsonPath,
  reportPagePath,
} from "../lib/kit/report_urls.ts";
import { type McpToolInfo, mcpTools } from "../lib/app/mcp_server.ts";
import type { ServiceWords } from "../lib/service.ts";
import { renderPage } from "../lib/kit/web/render.tsx";
import { shellFor } from "../lib/kit/web/shell.ts";
import { CopyButton } from "../lib/kit/ui/copy_button.tsx";

/** GET /docs. */
export const docsRoute: RouteDef<ServerDeps> = {
  path: PATHS.docs,
  handlers: (deps) => handlers(deps),
};

function handlers(deps: ServerDeps): RouteHandlers {
  const app: RouteHandlers = {};
  app.GET = (c) => {
    const origin = siteOrigin(c, deps.config.trustProxy);
    return renderPage(
      c,
      {
        title: "API, keys and MCP",
        description: `How to use the ${deps.service.title} from scripts and AI agents: the HTTP ` +
          "API with curl examples, free API keys, limits, the MCP server and the OpenAPI document.",
        canonical: `${origin}${PATHS.docs}`,
      },
      shellFor(c, deps, { islands: true, styles: [ASSETS.reportCss] }),
      <Docs
        prefix={deps.service.keyPrefix}
        words={deps.service.words}
        tools={mcpTools(deps)}
        origin={origin}
      />,
    );
  };
  return app;
}

/** The page's body: the service's key prefix and words, the MCP tools, this server's origin. */
function Docs(
  props: { prefix: string; words: ServiceWords; tools: McpToolInfo[]; origin: string },
): VNode {
  const { prefix, words, origin } = props;
  const example = words.exampleTarget;
  const scanCurl = `curl -s ${origin}${PATHS.scan} \\
  -H "Authorization: Bearer ${prefix}YOUR_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"url": "${example}"}'`;
  const reportCurl = `curl -s ${origin}${reportJsonPath("example.com")}`;
  const pollScript = `# start a scan, then follow it every 2 seconds until it is done
url=${example}
key=${prefix}YOUR_KEY
curl -s ${origin}${PATHS.scan} -H "Authorization: Bearer $key" -o answer.json \\
  -H "Content-Type: application/json" -d "{\\"url\\": \\"$url\\"}"
status=$(jq -r '.statusUrl // empty' answer.json)
if [ -z "$status" ]; then cp answer.json report.json; else  # 200: a cached report
  until s=$(curl -sf ${origin}$status | jq -r .status) && [ "$s" != queued ] &&
        [ "$s" != running ]; do sleep 2; done
  curl -sf ${origin}$(curl -sf ${origin}$status | jq -r .report.json) -o report.json
fi
jq '${words.resultJq}' report.json`;
  const mcpJson = JSON.stringify(
    {
      mcpServers: {
        [words.mcpName]: { type: "http", url: `${origin}${PATHS.mcp}` },
      },
    },
    null,
    2,
  );
  const mcpCurl = `curl -s ${origin}${PATHS.mcp} \\
  -H "Content-Type: application/json" \\
  -H "Accept: application/json, text/event-stream" \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_report","arguments":{"domain":"example.com"}}}'`;
  return (
    <article class="docs">
      <h1>API, keys and MCP</h1>
      <p class="lead">
        Everything the web form does is an HTTP API: start a scan, poll for the report, read it as
        JSON. AI agents can use the same through MCP.
      </p>
      <nav aria-label="On this page" class="toc card">
        <h2 class="toc-title">On this page</h2>
        <ol>
          <li>
            <a href="#quick-start">Quick start</a>
          </li>
          <li>
            <a href="#keys">Keys and authentication</a>
          </li>
          <li>
            <a href="#scan">POST /api/scan</a>
          </li>
          <li>
            <a href="#report">GET /api/report/:domain.json</a>
          </li>
          <li>
            <a href="#limits">Limits</a>
          </li>
          <li>
            <a href="#mcp">MCP for AI agents</a>
          </li>
          <li>
            <a href="#badge">Badge</a>
          </li>
          <li>
            <a href="#openapi">OpenAPI</a>
          </li>
        </ol>
      </nav>

      <section aria-labelledby="quick-start">
        <h2 id="quick-start">Quick start</h2>
        <ol>
          <li>
            <a href={PATHS.accountSignup}>Create a free account</a> and a key (it starts with{" "}
            <code>{prefix}</code>; it is shown once).
          </li>
          <li>Start a scan. A report younger than 24 hours comes back at once (200).</li>
          <li>
            Otherwise the answer is 202 with the scan's{" "}
            <code>statusUrl</code>: follow it every 1 to 2 seconds until the scan is done, then read
            the record it links.
          </li>
        </ol>
        <Code id="poll-script" what="the polling script">{pollScript}</Code>
      </section>

      <section aria-labelledby="keys">
        <h2 id="keys">Keys and authentication</h2>
        <p>
          Reading a report needs nothing. Starting a scan needs one of three things:
        </p>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Ways to authenticate POST /api/scan</caption>
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">How</th>
                <th scope="col">Limit</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>Scripts and apps</td>
                <td>
                  <code>Authorization: Bearer {prefix}…</code>, a free key from{" "}
                  <a href={PATHS.accountSignup}>/account/signup</a>. Keys are named and can be
                  revoked at once from your dashboard.
                </td>
                <td>{LIMITS.key} new scans per hour per key, whatever your IP</td>
              </tr>
              <tr>
                <td>The site owner's pipelines</td>
                <td>
                  <code>Authorization: Bearer PIPELINE_TOKEN</code>, set on the server
                </td>
                <td>{LIMITS.ip} per hour per IP, shared with the web form</td>
              </tr>
              <tr>
                <td>The web form</td>
                <td>
                  <code>turnstileToken</code>{" "}
                  in the body, from the browser check. It only works from a real browser that loaded
                  the form.
                </td>
                <td>{LIMITS.ip} per hour per IP</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p>
          A wrong or revoked bearer token gets{" "}
          <code>401 {'{"error":"Unauthorized"}'}</code>; no Authorization header and no valid
          challenge token gets <code>403 {'{"error":"Verification failed. Please retry."}'}</code>.
        </p>
      </section>

      <section aria-labelledby="scan">
        <h2 id="scan">POST /api/scan</h2>
        <p>
          Body: <code>url</code> (required: {words.targetWords}), <code>forceRescan</code>{" "}
          (scan even if a fresh report exists; uses a scan from your limit),{" "}
          <code>turnstileToken</code> (browser only).
        </p>
        <Code id="scan-curl" what="the scan command">{scanCurl}</Code>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Responses of POST /api/scan</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Body</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              <Row s="200" b="the record" m="a report younger than 24 hours; no limit used" />
              <Row
                s="202"
                b='{"domain", "scanId", "statusUrl"}'
                m="scan started (or joined): follow statusUrl until done or failed"
              />
              <Row s="400" b="{error}" m="bad JSON, or not a public domain" />
              <Row s="401" b='{"error": "Unauthorized"}' m="bearer token not accepted" />
              <Row s="403" b="{error}" m="no Authorization and no valid challenge token" />
              <Row
                s="429"
                b="{error, retryAfterSeconds}"
                m="a limit is reached: wait retryAfterSeconds (also in Retry-After)"
              />
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="report">
        <h2 id="report">GET /api/report/:domain.json</h2>
        <p>
          The stored record, or{" "}
          <code>404 {'{"error":"Not found"}'}</code>. No credentials. It sends an ETag: pollers that
          send <code>If-None-Match</code> get a cheap 304.
        </p>
        <Code id="report-curl" what="the report command">{reportCurl}</Code>
        <p>
          {words.recordWords} Its exact shape is in the{" "}
          <a href={PATHS.openApi}>OpenAPI document</a>. The same report is readable at{" "}
          <code>{origin}{reportPagePath("example.com")}</code>.
        </p>
      </section>

      <section aria-labelledby="limits">
        <h2 id="limits">Limits</h2>
        <ul>
          <li>
            {LIMITS.ip} new scans per hour per IP address (web form, pipeline token and MCP).
          </li>
          <li>{LIMITS.domain} new scans per hour of the same domain, whoever asks.</li>
          <li>{LIMITS.key} new scans per hour per API key, in the key's own pool.</li>
          <li>Reports younger than 24 hours are served from cache and count toward nothing.</li>
        </ul>
        <p>
          Every answer to POST /api/scan carries <code>RateLimit-Limit</code>,{" "}
          <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code> headers.
        </p>
      </section>

      <section aria-labelledby="mcp">
        <h2 id="mcp">MCP for AI agents</h2>
        <p>
          Agents that speak the Model Context Protocol can call this service at{" "}
          <code>{origin}{PATHS.mcp}</code>{" "}
          (Streamable HTTP, stateless, no credentials; calls count as anonymous by IP). Add it to an
          MCP client's configuration:
        </p>
        <Code id="mcp-json" what="the MCP configuration">{mcpJson}</Code>
        <p>
          With Claude Code:{" "}
          <code>
            claude mcp add --transport http {words.mcpName} {origin}
            {PATHS.mcp}
          </code>
        </p>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">MCP tools</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">What it does</th>
              </tr>
            </thead>
            <tbody>
              {/* The tools /mcp registers (lib/app/mcp_server.ts mcpTools), never a hand list. */}
              {props.tools.map((tool) => (
                <tr>
                  <td>
                    <code>{tool.name}</code>
                  </td>
                  <td>{tool.title}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>The same call with curl:</p>
        <Code id="mcp-curl" what="the MCP call">{mcpCurl}</Code>
      </section>

      <section aria-labelledby="badge">
        <h2 id="badge">Badge</h2>
        <p>
          <code>{origin}{badgePath("example.com")}</code>{" "}
          is an SVG badge of a domain's latest result, for a README or a site footer. Every report
          page has the snippet to paste.
        </p>
      </section>

      <section aria-labelledby="openapi">
        <h2 id="openapi">OpenAPI</h2>
        <p>
          <a href={PATHS.openApi}>/openapi.json</a>{" "}
          is an OpenAPI 3.1 document generated from the same schemas the server validates with, so
          it always matches. Load it into any OpenAPI tool to generate a client.
        </p>
      </section>
    </article>
  );
}

function Row(props: { s: string; b: string; m: string }): VNode {
  return (
    <tr>
      <td>
        <code>{props.s}</code>
      </td>
      <td>
        <code>{props.b}</code>
      </td>
      <td>{props.m}</td>
    </tr>
  );
}

function Code(props: { id: string; what: string; children: ComponentChildren }): VNode {
  return (
    <div class="code-with-copy">
      <div class="how-head">
        <CopyButton target={props.id} what={props.what} />
      </div>
      <pre class="code-block" tabIndex={0}><code id={props.id}>{props.children}</code></pre>
    </div>
  );
}
