/**
 * argon2id in WebAssembly (`npm:hash-wasm`, the WASM module embedded in its JavaScript, so it needs
 * no file, FFI or network): the fallback of lib/kit/auth/password.ts where the native module cannot load,
 * e.g. on Deno Deploy (no FFI). Same PHC strings, same parameters: a hash made by one verifies
 * with the other. It computes on the calling thread, so lib/kit/auth/password.ts runs it in a worker.
 */
import { argon2id, argon2Verify } from "hash-wasm";

/** argon2id of an already-normalised password, as a PHC string. */
export async function wasmHash(
  password: string,
  params: { memoryCost: number; timeCost: number; parallelism: number },
): Promise<string> {
  return await argon2id({
    password,
    salt: crypto.getRandomValues(new Uint8Array(16)),
    memorySize: params.memoryCost,
    iterations: params.timeCost,
    parallelism: params.parallelism,
    hashLength: 32,
    outputType: "encoded",
  });
}

/** Verifies an already-normalised password against a PHC string. */
export async function wasmVerify(phc: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash: phc });
  } catch {
    return false;
  }
}
