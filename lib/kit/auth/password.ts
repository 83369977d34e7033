/**
 * Password hashing with argon2id at the OWASP parameters: m=19456 KiB, t=2, p=1. Hashes are PHC
 * strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`), the same whichever backend made them:
 *
 * - "native": `npm:@node-rs/argon2` (Rust, ~20 ms, on libuv's thread pool so a hash never blocks
 *   the event loop). Used when the process may load it: `--allow-ffi=./node_modules`.
 * - "wasm-worker": `npm:hash-wasm`'s WebAssembly argon2id (~100 ms) in a Web Worker, off the
 *   event loop. Used where FFI is not available, e.g. Deno Deploy, or not granted.
 * - "wasm": the same on the calling thread, only where a Worker cannot be started.
 *
 * The backend is chosen on first use (never by prompting for a permission), so processes that
 * never touch a password (the CLI, scan workers) load nothing.
 */
import { normalisePassword } from "./account_rules.ts";
import { wasmHash, wasmVerify } from "./password_wasm.ts";

/** OWASP Password Storage Cheat Sheet, argon2id, first option. */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// The Algorithm const enum's value for argon2id (the module's enum is declared `const`).
const ARGON2ID = 2;

/** Which implementation hashes passwords. */
export type PasswordBackendName = "native" | "wasm-worker" | "wasm";

interface Backend {
  name: PasswordBackendName;
  hash(password: string): Promise<string>;
  verify(phc: string, password: string): Promise<boolean>;
}

let backend: Promise<Backend> | null = null;
let preference: "auto" | "native" | "wasm" = "auto";
let worker: Worker | null = null;
let dummy: Promise<string> | null = null;

/**
 * Chooses the backend: "auto" (native when FFI to ./node_modules is granted and the module loads,
 * else WASM), or forces one (tests). Takes effect for the next hash.
 */
export function usePasswordBackend(choice: "auto" | "native" | "wasm"): void {
  preference = choice;
  backend = null;
  dummy = null;
}

/** The backend in use (loading it if needed). */
export async function passwordBackend(): Promise<PasswordBackendName> {
  return (await load()).name;
}

/** Stops the WASM worker, if one was started (tests; a server keeps it). */
export function closePasswordWorker(): void {
  worker?.terminate();
  worker = null;
  if (preference !== "native") backend = null;
}

function load(): Promise<Backend> {
  return backend ??= pick();
}

async function pick(): Promise<Backend> {
  if (preference === "native" || (preference === "auto" && ffiGranted())) {
    try {
      const native = await import("@node-rs/argon2");
      return {
        name: "native",
        hash: (password) =>
          native.hash(password, { algorithm: ARGON2ID as never, ...ARGON2_PARAMS }),
        verify: (phc, password) => native.verify(phc, password),
      };
    } catch (error) {
      if (preference === "native") throw error;
    }
  }
  return startWorker() ?? {
    name: "wasm",
    hash: (password) => wasmHash(password, ARGON2_PARAMS),
    verify: wasmVerify,
  };
}

/** True when this process may load native code from ./node_modules (never prompts). */
function ffiGranted(): boolean {
  try {
    const path = new URL("../../../node_modules", import.meta.url);
    if (path.protocol !== "file:") return false;
    return Deno.permissions.querySync({ name: "ffi", path }).state === "granted";
  } catch {
    return false;
  }
}

function startWorker(): Backend | null {
  let w: Worker;
  try {
    w = new Worker(new URL("./password_worker.ts", import.meta.url), { type: "module" });
  } catch {
    return null;
  }
  worker = w;
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  w.onmessage = (e: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
    const p = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (e.data.error !== undefined) p?.reject(new Error(e.data.error));
    else p?.resolve(e.data.result);
  };
  w.onerror = (e) => {
    e.preventDefault();
    for (const p of pending.values()) p.reject(new Error(`password worker failed: ${e.message}`));
    pending.clear();
    if (worker === w) {
      worker = null;
      backend = null;
    }
  };
  const call = <T>(message: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage({ id, ...message });
    });
  return {
    name: "wasm-worker",
    hash: (password) => call<string>({ op: "hash", password, params: { ...ARGON2_PARAMS } }),
    verify: (phc, password) => call<boolean>({ op: "verify", phc, password }),
  };
}

/**
 * At most this many hashes run at once: argon2id is memory- and CPU-hard on purpose, and a burst
 * of logins hashing on every core would starve the event loop (report reads, scans) of CPU. The
 * rest queue here; a login waits a few tens of milliseconds longer instead.
 */
export const MAX_CONCURRENT_HASHES = Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1);
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((r) => waiting.push(r));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Hashes a password into an argon2id PHC string. */
export async function hashPassword(password: string): Promise<string> {
  const b = await load();
  return await limited(() => b.hash(normalisePassword(password)));
}

/** Verifies a password against a PHC string; false (never a throw) when the string is malformed. */
export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  if (!isArgon2idPhc(phc)) return false;
  const b = await load();
  try {
    return await limited(() => b.verify(phc, normalisePassword(password)));
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, made once per process. A login for an unknown e-mail is verified
 * against it, so it costs the same time as a wrong password for a real account.
 */
export function dummyHash(): Promise<string> {
  return dummy ??= hashPassword(crypto.randomUUID());
}

/** True for an argon2id PHC string (what ADMIN_PASSWORD_HASH must hold). */
export function isArgon2idPhc(value: string): boolean {
  return /^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(value);
}
