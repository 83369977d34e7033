/**
 * Which webhook URLs a watch may name: HTTPS only, no user name or password, a host that resolves
 * to public addresses only (the same rule as a scan's target: lib/kit/net/resolve.ts), at most 2,048
 * characters. Checked when the watch is created (a clear 400), and again by the guarded fetcher on
 * every delivery (a name that rebinds to a private address later is refused there, before any
 * connection).
 *
 * Tests reach a loopback receiver through WEBHOOK_RESOLVE (host=ip:port, like SCAN_RESOLVE): the URL
 * still has to say https, and the mapped host is reached over plain HTTP on loopback. SCAN_RESOLVE
 * itself never applies to webhooks, so a self-hosted instance that maps an intranet host for
 * scanning does not let users post to it.
 */
import type { ResolveTarget } from "../../kit/config.ts";
import { BadRequestError } from "../../kit/errors.ts";
import {
  assertFetchableUrl,
  findResolveTarget,
  type LookupFunction,
  resolvePublicAddresses,
} from "../../kit/net/guarded_fetch.ts";
import { FetchError } from "../../kit/net/types.ts";

/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL = 2048;

/** What checking a webhook URL needs. */
export interface WebhookUrlDeps {
  /** WEBHOOK_RESOLVE (tests only): hosts reached at a fixed address. */
  resolve: Map<string, ResolveTarget>;
  lookup?: LookupFunction;
}

/**
 * The URL, checked. @throws BadRequestError (400) saying what is wrong.
 */
export async function checkWebhookUrl(raw: string, deps: WebhookUrlDeps): Promise<URL> {
  const text = raw.trim();
  if (!text) throw new BadRequestError("webhookUrl is empty");
  if (text.length > MAX_WEBHOOK_URL) {
    throw new BadRequestError(`webhookUrl is longer than ${MAX_WEBHOOK_URL} characters`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadRequestError("webhookUrl is not a URL");
  }
  if (url.protocol !== "https:") {
    throw new BadRequestError("webhookUrl must be an https:// URL: alerts are sent over TLS only");
  }
  try {
    assertFetchableUrl(url.href, deps.resolve);
    if (!findResolveTarget(url.hostname, deps.resolve)) {
      await resolvePublicAddresses(url.hostname, deps.lookup, { timeoutMs: 5000 });
    }
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    if (error.kind === "blocked") {
      throw new BadRequestError(
        `webhookUrl: ${url.hostname} is or resolves to a private or reserved address; ` +
          "alerts are only sent to public hosts",
      );
    }
    if (error.kind === "invalid_url") throw new BadRequestError(`webhookUrl: ${error.message}`);
    throw new BadRequestError(`webhookUrl: ${url.hostname} does not resolve to any address`);
  }
  url.hash = "";
  return url;
}

/** How a page shows a webhook URL without its secret parts: the origin only. */
export function webhookDisplay(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "(invalid URL)";
  }
}
