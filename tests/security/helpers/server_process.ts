/**
 * The real server (`main.ts`) as a subprocess on a loopback port, for the crash, log-leak and soak
 * tests: PORT=0 (the port is read from its "Listening on" line), a KV file, stdout and stderr
 * captured in full, its resident memory read from /proc, and SIGKILL.
 *
 * Only host names listed in SCAN_RESOLVE may be scanned through it: any other name would be sent
 * to the machine's real resolver by the server's "resolves publicly" check.
 */

/** A running server process. */
export interface ServerProcess {
  pid: number;
  /** e.g. "http://127.0.0.1:43210" */
  base: string;
  /** Everything printed so far. */
  output(): string;
  /** Resident set size in bytes (Linux /proc), or null when it cannot be read. */
  rss(): Promise<number | null>;
  /** SIGKILL, then waits for the exit and the end of the output streams. */
  kill(): Promise<void>;
}

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;
const DENO_JSON = new URL("../../../deno.json", import.meta.url);

/**
 * The V8 flags of deno.json's `start` task ("" when it has none: the heap limits are then the
 * memory plan's, lib/kit/config_memory.ts), so a test runs the server with the flags it has in
 * production.
 */
export function startTaskV8Flags(): string {
  const start = JSON.parse(Deno.readTextFileSync(DENO_JSON)).tasks.start as string;
  return start.match(/--v8-flags=(\S+)/)?.[1] ?? "";
}

/** Starts main.ts with `env` (PORT is forced to 0) and waits until it listens. */
export async function startServer(
  env: Record<string, string>,
  options: {
    startTimeoutMs?: number;
    /** V8 flags for the server (e.g. {@link startTaskV8Flags}); none by default. */
    v8Flags?: string;
    /** The server's open-file limit (`ulimit -n`, lowered through sh; raising needs privileges). */
    fileLimit?: number;
  } = {},
): Promise<ServerProcess> {
  const v8 = options.v8Flags ? [`--v8-flags=${options.v8Flags}`] : [];
  const deno = [Deno.execPath(), "run", "-A", ...v8, "--unstable-kv", "--no-check", MAIN];
  const [command, ...args] = options.fileLimit
    ? ["sh", "-c", `ulimit -n ${options.fileLimit} && exec "$@"`, "sh", ...deno]
    : deno;
  const server = await spawnListening(command, args, env, options.startTimeoutMs ?? 30_000);
  return {
    ...server,
    async rss() {
      if (server.exited()) return null;
      const pid = server.pid;
      try {
        // Deno lets only --allow-all read /proc; `ps` needs just --allow-run.
        const status = await Deno.readTextFile(`/proc/${pid}/status`);
        const kb = Number(status.match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1]);
        if (Number.isFinite(kb)) return kb * 1024;
      } catch { /* fall back to ps */ }
      try {
        const out = await new Deno.Command("ps", {
          args: ["-o", "rss=", "-p", String(pid)],
          stdout: "piped",
          stderr: "null",
        }).output();
        const kb = Number(new TextDecoder().decode(out.stdout).trim());
        return out.success && Number.isFinite(kb) && kb > 0 ? kb * 1024 : null;
      } catch {
        return null;
      }
    },
  };
}

/** A process that prints "Listening on http://host:port/" once it serves. */
export interface ListeningProcess {
  pid: number;
  /** e.g. "http://127.0.0.1:43210" */
  base: string;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** True once the process has exited. */
  exited(): boolean;
  /** SIGKILL, then waits for the exit and the end of the output streams. */
  kill(): Promise<void>;
}

/**
 * Spawns `command` with `env` (PORT forced to 0), captures its output in full and waits for its
 * "Listening on" line (throws with the output when it exits or `startTimeoutMs` passes first).
 */
export async function spawnListening(
  command: string,
  args: string[],
  env: Record<string, string>,
  startTimeoutMs: number,
  cwd?: string,
): Promise<ListeningProcess> {
  const child = new Deno.Command(command, {
    args,
    cwd,
    env: { ...env, PORT: "0", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]).catch(() => {});
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const until = Date.now() + startTimeoutMs;
  let port = 0;
  while (!port) {
    const m = text.match(/Listening on http:\/\/[^:]+:(\d+)\//);
    if (m) port = Number(m[1]);
    else if (exited || Date.now() > until) {
      if (!exited) child.kill("SIGKILL");
      await status;
      await pumps;
      throw new Error(`server did not start:\n${text}`);
    } else await new Promise((r) => setTimeout(r, 25));
  }
  let killed: Promise<void> | undefined;
  return {
    pid: child.pid,
    base: `http://127.0.0.1:${port}`,
    output: () => text,
    exited: () => exited,
    kill() {
      killed ??= (async () => {
        if (!exited) {
          try {
            child.kill("SIGKILL");
          } catch { /* already gone */ }
        }
        await status;
        await pumps;
      })();
      return killed;
    },
  };
}

/** Polls `get` until it answers 200, returning that response (or throws after `timeoutMs`). */
export async function poll200(
  get: () => Promise<Response>,
  timeoutMs: number,
  everyMs = 200,
): Promise<Response> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await get();
    if (res.status === 200) return res;
    await res.body?.cancel();
    if (Date.now() > until) throw new Error(`still ${res.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
