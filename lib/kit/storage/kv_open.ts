/**
 * Opens the Deno KV store the configuration names, and refuses what cannot work:
 *
 * - on Deno Deploy with no KV_PATH: `Deno.openKv()`, the platform's managed, distributed KV;
 * - KV_PATH = an http(s) URL: KV Connect (a self-hosted denokv server, or a Deno Deploy KV
 *   database), authenticated by DENO_KV_ACCESS_TOKEN, which Deno reads itself. Any number of
 *   processes may share it. KV Connect has no queues, so scans then go through the polled job
 *   table of lib/kit/storage/job_queue.ts;
 * - KV_PATH = ":memory:": a throw-away store of this process;
 * - otherwise a local SQLite file (default ./data/kv.sqlite3), for ONE process only. An exclusive
 *   advisory lock on `<file>.lock` is taken first, so a second process on the same file stops at
 *   once with a clear message instead of failing later with "database is locked".
 */
import { type Config, isKvConnectUrl } from "../config.ts";
import { SERVICE_DEFAULTS } from "../service_defaults.ts";
import { KV_OPENED_BY_KEY } from "./keys_system.ts";

/** The local KV file when the configuration names none (the default service's). */
const DEFAULT_KV_PATH = SERVICE_DEFAULTS.visibility.kvPath;

/** Thrown when the KV store cannot be opened; the message says what to do. */
export class KvOpenError extends Error {
  override name = "KvOpenError";
}

/** An open KV store and how it was reached. */
export interface OpenedKv {
  kv: Deno.Kv;
  /** "deploy": the platform's; "connect": a KV Connect URL; "file"; "memory". */
  kind: "deploy" | "connect" | "file" | "memory";
  /** Where (a file path, or the URL without credentials); never a token. */
  location: string;
  /** Releases the single-process lock of a local file (closing the process does too). */
  close(): void;
}

/** Where KV lives for this configuration, for the start-up lines. */
export function describeKv(config: Pick<Config, "onDeploy" | "kvPath">): string {
  if (config.onDeploy && !config.kvPath) return "Deno Deploy managed KV";
  if (isKvConnectUrl(config.kvPath)) {
    return `KV Connect at ${redactUrl(config.kvPath!)} (shared by every process using it)`;
  }
  const path = config.kvPath ?? DEFAULT_KV_PATH;
  return path === ":memory:"
    ? "in memory (lost on exit)"
    : `${path} (local SQLite: one process only; use a KV Connect URL for more)`;
}

/** Opens KV as the configuration says. @throws KvOpenError with a message for the operator. */
export async function openKv(
  config: Pick<Config, "onDeploy" | "kvPath" | "kvAccessTokenSet">,
): Promise<OpenedKv> {
  if (config.onDeploy && !config.kvPath) {
    return { kv: await Deno.openKv(), kind: "deploy", location: "deploy", close: () => {} };
  }
  const path = config.kvPath ?? DEFAULT_KV_PATH;
  if (isKvConnectUrl(path)) {
    const location = redactUrl(path);
    if (!config.kvAccessTokenSet) {
      throw new KvOpenError(
        `KV_PATH is the KV Connect URL ${location}, but DENO_KV_ACCESS_TOKEN is not set.`,
      );
    }
    try {
      return { kv: await Deno.openKv(path), kind: "connect", location, close: () => {} };
    } catch (error) {
      throw new KvOpenError(
        `Could not open the KV Connect database at ${location}: ${messageOf(error)}. ` +
          "Check the URL and DENO_KV_ACCESS_TOKEN (the token of that denokv server or Deno " +
          "Deploy KV database).",
      );
    }
  }
  if (path === ":memory:") {
    return { kv: await Deno.openKv(path), kind: "memory", location: path, close: () => {} };
  }
  let lock: Deno.FsFile;
  try {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    await Deno.mkdir(dir || ".", { recursive: true });
    lock = await Deno.open(`${path}.lock`, { read: true, write: true, create: true });
  } catch (error) {
    throw new KvOpenError(unwritableMessage(path, error));
  }
  if (!(await lock.tryLock(true))) {
    const holder = (await Deno.readTextFile(`${path}.lock`).catch(() => "")).trim();
    lock.close();
    throw new KvOpenError(singleProcessMessage(path, holder));
  }
  let kv: Deno.Kv | undefined;
  try {
    await lock.truncate(0);
    await lock.write(new TextEncoder().encode(`${Deno.pid}\n`));
    kv = await Deno.openKv(path);
    // A first write finds a file that another program holds (e.g. a process that ignores the
    // lock file), a read-only file or a full disk now, not in the middle of the first request.
    await kv.set(KV_OPENED_BY_KEY, { pid: Deno.pid, at: Date.now() });
  } catch (error) {
    try {
      kv?.close();
    } catch { /* closed already */ }
    lock.close();
    if (/database is locked/i.test(messageOf(error))) {
      throw new KvOpenError(singleProcessMessage(path, ""));
    }
    throw new KvOpenError(unwritableMessage(path, error));
  }
  return {
    kv,
    kind: "file",
    location: path,
    close: () => {
      try {
        lock.close();
      } catch { /* closed already */ }
    },
  };
}

/** A local KV file that cannot be created, opened or written (read-only, full disk, no access). */
function unwritableMessage(path: string, error: unknown): string {
  return `The KV file ${path} cannot be opened for writing: ${messageOf(error)}. ` +
    "The server needs a writable KV store: check that the file and its directory are writable " +
    "by this user, that the file system is not mounted read-only and that the disk is not full, " +
    "or set KV_PATH to another location.";
}

function singleProcessMessage(path: string, holder: string): string {
  return `KV_PATH ${path} is already in use by another process${
    /^\d+$/.test(holder) ? ` (pid ${holder})` : ""
  }. A local SQLite KV file serves ONE process only (two processes on one file fail with ` +
    `"database is locked"). Run a single process, give each process its own KV_PATH, or, for ` +
    "several processes sharing one store, set KV_PATH to a KV Connect URL (a self-hosted denokv " +
    "server or a Deno Deploy KV database) and DENO_KV_ACCESS_TOKEN.";
}

/** A URL without user-info, query or fragment (where credentials could hide). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(unparseable URL)";
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
