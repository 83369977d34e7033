/**
 * `deno task admin:hash`: reads the administrator password from stdin (without echo when stdin is
 * a terminal, asked twice) and prints its argon2id PHC string for ADMIN_PASSWORD_HASH.
 *
 *   deno task admin:hash                          # asks for the password
 *   printf %s "$PASSWORD" | deno task admin:hash  # from a pipe (one trailing newline is dropped)
 *   ADMIN_PASSWORD_HASH='$argon2id$v=19$...' deno task start
 */
import { checkPassword } from "../../kit/auth/account_rules.ts";
import { hashPassword } from "../../kit/auth/password.ts";

const encoder = new TextEncoder();

/** Reads a line from a terminal with echo off. Ctrl-C aborts. */
async function promptHidden(prompt: string): Promise<string> {
  await Deno.stderr.write(encoder.encode(prompt));
  Deno.stdin.setRaw(true);
  const bytes: number[] = [];
  const buf = new Uint8Array(64);
  try {
    read: for (;;) {
      const n = await Deno.stdin.read(buf);
      if (n === null) break;
      for (const b of buf.subarray(0, n)) {
        if (b === 0x03) {
          Deno.stdin.setRaw(false);
          await Deno.stderr.write(encoder.encode("\n"));
          Deno.exit(130);
        }
        if (b === 0x0d || b === 0x0a) break read;
        if (b === 0x7f || b === 0x08) {
          // Backspace: drop the last character (and its UTF-8 continuation bytes).
          while (bytes.length && (bytes[bytes.length - 1] & 0xc0) === 0x80) bytes.pop();
          bytes.pop();
          continue;
        }
        bytes.push(b);
      }
    }
  } finally {
    Deno.stdin.setRaw(false);
    await Deno.stderr.write(encoder.encode("\n"));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Reads the password (from a terminal or a pipe) and returns its PHC string. */
export async function main(): Promise<number> {
  let password: string;
  if (Deno.stdin.isTerminal()) {
    password = await promptHidden("Administrator password (not shown): ");
    if ((await promptHidden("The same again: ")) !== password) {
      console.error("The two entries differ; nothing was printed.");
      return 1;
    }
  } else {
    password = (await new Response(Deno.stdin.readable).text()).replace(/\r?\n$/, "");
  }
  const problem = checkPassword(password);
  if (problem) {
    console.error(problem);
    return 1;
  }
  console.log(await hashPassword(password));
  console.error("Set it as ADMIN_PASSWORD_HASH (in single quotes in a shell: it contains $).");
  return 0;
}

if (import.meta.main) Deno.exit(await main());
