/**
 * A minimal browser for in-process page tests: a cookie jar, the headers a browser sends on a
 * same-origin form post (Origin, Sec-Fetch-Site), the client IP (X-Forwarded-For with
 * TRUST_PROXY=1), and helpers to read a page's form token and post forms.
 */
import type { TestEnv } from "./app_env.ts";

/** The origin of `app.request("/path")` (its URL is http://localhost/path). */
export const ORIGIN = "http://localhost";

/** One parsed Set-Cookie header. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** Parses every Set-Cookie header of a response. */
export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    const attributes: Record<string, string | true> = {};
    for (const a of attrs) {
      const i = a.indexOf("=");
      if (i < 0) attributes[a.toLowerCase()] = true;
      else attributes[a.slice(0, i).toLowerCase()] = a.slice(i + 1);
    }
    return { name: pair.slice(0, eq), value: decodeURIComponent(pair.slice(eq + 1)), attributes };
  });
}

/** The hidden `csrf` field of a page's first form (or of the form posting to `action`). */
export function formToken(html: string, action?: string): string {
  let scope = html;
  if (action) {
    const at = html.indexOf(`action="${action}"`);
    if (at < 0) throw new Error(`no form posting to ${action}`);
    scope = html.slice(at);
  }
  const m = scope.match(/name="csrf" value="([^"]+)"/);
  if (!m) throw new Error("no csrf field in the page");
  return m[1];
}

/** Options of one request. */
export interface RequestOptions {
  method?: string;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Send no Origin and no Sec-Fetch-Site (like curl or a very old browser). */
  bare?: boolean;
  /** Ask for JSON, as the islands' fetch does. */
  json?: boolean;
  /** A raw body (a file an island sends as it is). */
  body?: string;
}

/** A browser-like client with its own cookie jar. */
export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly env: TestEnv, readonly ip = "198.51.100.7") {}

  /** Sends a request with the jar's cookies and keeps the cookies of the answer. */
  async request(path: string, options: RequestOptions = {}): Promise<Response> {
    const method = options.method ?? (options.form ? "POST" : "GET");
    const headers: Record<string, string> = {
      "x-forwarded-for": this.ip,
      accept: options.json ? "application/json" : "text/html,application/xhtml+xml,*/*;q=0.8",
    };
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    if (method !== "GET" && method !== "HEAD" && !options.bare) {
      headers.origin = ORIGIN;
      headers["sec-fetch-site"] = "same-origin";
    }
    let body: string | undefined = options.body;
    if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    }
    Object.assign(headers, options.headers);
    const res = await this.env.app.request(path, { method, headers, body, redirect: "manual" });
    for (const c of setCookies(res)) {
      if (c.attributes["max-age"] === "0" || c.value === "") this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  /** GET a page and return its HTML (asserting nothing). */
  async page(path: string): Promise<{ res: Response; html: string }> {
    const res = await this.request(path);
    return { res, html: await res.text() };
  }

  /** GET `page`, then post its form (with its csrf token) plus `fields` to `action`. */
  async submit(
    page: string,
    action: string,
    fields: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<Response> {
    const { html } = await this.page(page);
    return await this.request(action, {
      ...options,
      form: { csrf: formToken(html, action), ...fields },
    });
  }

  /** Signs up through the form (fake Turnstile token "good-token"); returns the response. */
  signUp(email: string, password: string, token = "good-token"): Promise<Response> {
    return this.submit("/account/signup", "/account/signup", {
      email,
      password,
      turnstileToken: token,
    });
  }

  /** Signs in through the form. */
  logIn(email: string, password: string, token = "good-token"): Promise<Response> {
    return this.submit("/account/login", "/account/login", {
      email,
      password,
      turnstileToken: token,
    });
  }

  /** The dashboard's session form token. */
  async sessionToken(): Promise<string> {
    const { html } = await this.page("/account");
    return formToken(html, "/account/keys");
  }

  /** Creates a key with the no-JS form and returns the dashboard that shows it once. */
  async createKeyByForm(name: string): Promise<{ res: Response; key: string; html: string }> {
    const csrf = await this.sessionToken();
    const res = await this.request("/account/keys", { form: { csrf, name } });
    const { html } = await this.page("/account");
    const key = html.match(/id="new-key-value"[^>]*value="([^"]+)"/)?.[1] ??
      html.match(/value="([^"]+)"[^>]*id="new-key-value"/)?.[1] ?? "";
    return { res, key, html };
  }
}
