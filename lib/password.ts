/**
 * Password hashing with argon2id (`npm:@node-rs/argon2`, native, run on libuv's thread pool so a
 * hash never blocks the event loop) at the OWASP parameters: m=19456 KiB, t=2, p=1. Hashes are
 * PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`).
 *
 * The native module is loaded on first use, so processes that never touch a password (the CLI,
 * scan workers) need no FFI permission. A server that does needs `--allow-ffi=./node_modules`.
 */
import type { Algorithm } from "@node-rs/argon2";
import { normalisePassword } from "./account_rules.ts";

/** OWASP Password Storage Cheat Sheet, argon2id, first option. */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// The Algorithm const enum's value for argon2id (the module's enum is declared `const`).
const ARGON2ID = 2;

type Argon2 = typeof import("@node-rs/argon2");
let argon2: Promise<Argon2> | null = null;
let dummy: Promise<string> | null = null;

function load(): Promise<Argon2> {
  return argon2 ??= import("@node-rs/argon2");
}

/** Hashes a password into an argon2id PHC string. */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await load();
  return await hash(normalisePassword(password), {
    algorithm: ARGON2ID as Algorithm,
    ...ARGON2_PARAMS,
  });
}

/** Verifies a password against a PHC string; false (never a throw) when the string is malformed. */
export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  if (!isArgon2idPhc(phc)) return false;
  const { verify } = await load();
  try {
    return await verify(phc, normalisePassword(password));
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
