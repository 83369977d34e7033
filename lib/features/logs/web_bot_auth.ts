/**
 * Web Bot Auth: a request signed with HTTP Message Signatures (RFC 9421) by an agent that
 * publishes its keys (draft-ietf-webbotauth-httpsig-protocol: `Signature-Agent` names the agent,
 * `Signature-Input` the covered components with `tag="web-bot-auth"`, `keyid` the key's JWK
 * thumbprint; keys at `/.well-known/http-message-signatures-directory`). Checked against the
 * drafts' text read on 2026-12-06 (https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/).
 *
 * A log keeps the headers only when it was configured to (a JSON log with request headers); the
 * signature is verified against the components the log also kept (`@authority`, `@method`,
 * `@path`, `@query`, `signature-agent`). A component the log lacks means "cannot check", never a
 * guess.
 */
import type { LogHit } from "./hit.ts";
import { charsOf, trimEnd } from "../../kit/text/trim.ts";

/** A public key of a key directory (JWK, Ed25519). */
export interface DirectoryKey {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
}

/** Finds an agent's published keys (the guarded fetcher in the server; a map in tests). */
export type KeyDirectory = (origin: string) => Promise<DirectoryKey[]>;

/** What a signature check found. */
export type SignatureCheck =
  | { outcome: "valid"; agent: string }
  | { outcome: "invalid"; agent: string; why: string }
  | { outcome: "unchecked"; why: string };

/** The value of a structured-field string (`"x"`) or the text as is. */
function sfString(v: string): string {
  const t = v.trim();
  return t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

/** The members `label=value` of a dictionary header, split at top-level commas. */
function members(header: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0, quoted = false, start = 0;
  const push = (end: number) => {
    const part = header.slice(start, end).trim();
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  };
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === '"' && header[i - 1] !== "\\") quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")") depth--;
    else if (!quoted && depth === 0 && c === ",") {
      push(i);
      start = i + 1;
    }
  }
  push(header.length);
  return out;
}

/** Reads `("a" "b");k=v;...` into components and parameters. */
function innerList(v: string): { components: string[]; params: Map<string, string> } | null {
  const close = v.indexOf(")");
  if (!v.startsWith("(") || close < 0) return null;
  const components = [...v.slice(1, close).matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  const params = new Map<string, string>();
  for (const p of v.slice(close + 1).split(";")) {
    const eq = p.indexOf("=");
    if (eq > 0) params.set(p.slice(0, eq).trim(), sfString(p.slice(eq + 1)));
  }
  return { components, params };
}

const b64 = (s: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const b64url = (bytes: Uint8Array): string =>
  trimEnd(
    btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_"),
    charsOf("="),
  );

/** The RFC 7638 thumbprint of an Ed25519 JWK (what Web Bot Auth uses as `keyid`). */
export async function jwkThumbprint(k: DirectoryKey): Promise<string> {
  const canonical = `{"crv":"${k.crv}","kty":"${k.kty}","x":"${k.x}"}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return b64url(new Uint8Array(digest));
}

/** Verifies a hit's Web Bot Auth signature, if it carries one. */
export async function checkSignature(hit: LogHit, keys: KeyDirectory): Promise<SignatureCheck> {
  const s = hit.signature;
  if (!s) return { outcome: "unchecked", why: "no signature headers in the log" };
  let agent: string;
  try {
    agent = new URL(sfString(s.signatureAgent)).origin;
  } catch {
    return { outcome: "unchecked", why: "Signature-Agent is not a URL" };
  }
  const inputs = members(s.signatureInput);
  const sigs = members(s.signature);
  for (const [label, input] of inputs) {
    const parsed = innerList(input);
    const sig = sigs.get(label);
    if (!parsed || !sig || parsed.params.get("tag") !== "web-bot-auth") continue;
    const created = Number(parsed.params.get("created"));
    const expires = Number(parsed.params.get("expires"));
    const at = hit.time / 1000;
    if (Number.isFinite(created) && at + 60 < created) {
      return { outcome: "invalid", agent, why: "created after the request" };
    }
    if (Number.isFinite(expires) && at > expires + 60) {
      return { outcome: "invalid", agent, why: "expired before the request" };
    }
    const q = hit.target.indexOf("?");
    const component: Record<string, string> = {
      "@authority": s.authority.toLowerCase(),
      "@method": hit.method.toUpperCase(),
      "@path": q < 0 ? hit.target : hit.target.slice(0, q),
      "@query": q < 0 ? "?" : hit.target.slice(q),
      "signature-agent": s.signatureAgent.trim(),
    };
    const lines: string[] = [];
    for (const c of parsed.components) {
      if (!(c in component) || (c === "@authority" && !s.authority)) {
        return { outcome: "unchecked", why: `the log lacks the signed component ${c}` };
      }
      lines.push(`"${c}": ${component[c]}`);
    }
    lines.push(`"@signature-params": ${input}`);
    const keyid = parsed.params.get("keyid") ?? "";
    let directory: DirectoryKey[];
    try {
      directory = await keys(agent);
    } catch (e) {
      return {
        outcome: "unchecked",
        why: `no key directory: ${e instanceof Error ? e.message : e}`,
      };
    }
    let key: DirectoryKey | undefined;
    for (const k of directory) {
      if (k.kty !== "OKP" || k.crv !== "Ed25519" || !k.x) continue;
      if (k.kid === keyid || await jwkThumbprint(k) === keyid) key = k;
    }
    if (!key) return { outcome: "invalid", agent, why: "keyid not in the agent's directory" };
    try {
      const pub = await crypto.subtle.importKey(
        "jwk",
        { kty: "OKP", crv: "Ed25519", x: key.x },
        { name: "Ed25519" },
        false,
        ["verify"],
      );
      const bytes = b64(sig.replace(/^:|:$/g, ""));
      const ok = await crypto.subtle.verify(
        "Ed25519",
        pub,
        bytes,
        new TextEncoder().encode(lines.join("\n")),
      );
      return ok ? { outcome: "valid", agent } : { outcome: "invalid", agent, why: "bad signature" };
    } catch (e) {
      return { outcome: "invalid", agent, why: e instanceof Error ? e.message : String(e) };
    }
  }
  return { outcome: "unchecked", why: "no web-bot-auth signature" };
}
