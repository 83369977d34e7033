/**
 * The server started as `deno task start` starts it: the same permission flags and V8 flags (the
 * heap cap), read from deno.json's "start" task, with PORT=0 and the environment given. Its
 * output is captured; the build step of the task is left out (the tests' `deno task build` ran).
 */
import { spawnListening } from "../security/helpers/server_process.ts";

/** A running server. */
export interface StartedServer {
  base: string;
  pid: number;
  /** Everything printed so far. */
  output(): string;
  /** The JSON log lines printed so far. */
  events(): Record<string, unknown>[];
  /**
   * The log lines `match` accepts, once `count` of them are printed. The server logs a scan's end
   * after storing its record, and writes its log in batches, so a test that has read a record
   * waits for the line, not for a time. Returns what there is when the process exits first, or
   * after `limitMs` (a hang's bound, never a wait a test relies on), for the assertion to show.
   */
  waitForEvents(
    match: (e: Record<string, unknown>) => boolean,
    count?: number,
    limitMs?: number,
  ): Promise<Record<string, unknown>[]>;
  /** True once the process has exited. */
  exited(): boolean;
  /** SIGKILL, then waits for the exit and the output. */
  kill(): Promise<void>;
}

const ROOT = new URL("../../", import.meta.url);

/** The `deno run` arguments of the start task (flags and the entry point). */
export async function startTaskArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const task: string = config.tasks.start;
  const run = task.split("&&").map((p) => p.trim()).find((p) => p.startsWith("deno run"));
  if (!run) throw new Error(`no "deno run" in the start task: ${task}`);
  return run.split(/\s+/).slice(1);
}

/**
 * Starts main.ts with the start task's flags and waits until it listens. `fileLimit` lowers its
 * open-file limit (`ulimit -n` through sh; raising needs privileges).
 */
export async function startLikeStartTask(
  env: Record<string, string>,
  options: {
    fileLimit?: number;
    /** Another entry point than main.ts, run with the same flags (a test's stand-in server). */
    entry?: string;
  } = {},
): Promise<StartedServer> {
  const task = await startTaskArgs();
  const args = options.entry ? [...task.slice(0, -1), options.entry] : task;
  const [command, ...rest] = options.fileLimit
    ? ["sh", "-c", `ulimit -n ${options.fileLimit} && exec "$@"`, "sh", Deno.execPath(), ...args]
    : [Deno.execPath(), ...args];
  const server = await spawnListening(command, rest, env, 60_000, ROOT.pathname);
  const events = () =>
    server.output().split("\n").flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
  return {
    ...server,
    events,
    async waitForEvents(match, count = 1, limitMs = 120_000) {
      const until = Date.now() + limitMs;
      for (;;) {
        const found = events().filter(match);
        if (found.length >= count || server.exited() || Date.now() > until) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
