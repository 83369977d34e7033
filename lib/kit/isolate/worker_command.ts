/**
 * The command line of a worker process (lib/kit/isolate/worker_process.ts): which Deno runs it, with
 * which permissions, V8 limits and environment.
 *
 * Which Deno: the one running the server, by whichever name this process may run it. The start task
 * grants `--allow-run=deno,...` (deno.json): `deno` as the PATH finds it, which is the Deno that
 * runs the task whether it was installed globally or came from `npx deno` (npx puts its own bin
 * directory first on the PATH). Deno resolves a permission's name to a path once, at start-up, and
 * the same name resolves the same way at spawn time. An operator who grants the executable's own
 * path (`--allow-run=$(which deno)`, or a path Deno.execPath() gives) gets that path used. A worker
 * tells the Deno version it runs in its first answer (lib/kit/isolate/process_pool.ts checks it).
 *
 * Its permissions are what its work needs and no more (docs/security.md, "Worker processes"):
 * - `--allow-net`: the scans and the site-facts job reach sites through the guarded fetcher
 *   (lib/kit/net/guarded_fetch.ts), which checks every address it connects to; any host, because a
 *   scan may be asked of any public site;
 * - `--allow-read` of the program's own code only (lib/, node_modules/, static/build/): the modules
 *   it loads by URL; never the data directory (the KV file), the configuration or the rest of the
 *   file system;
 * - `--allow-env` of an environment that holds nothing of the server's: the process starts with
 *   an empty one but for where Deno's cache and the temporary directory are ({@link KEPT_ENV});
 *   libraries read their switches from it (undici, playwright-core), so it is not named per
 *   variable;
 * - nothing to write, no processes, no FFI, no system information but its own priority
 *   (`setPriority`);
 * - a worker that may render with a local Chromium (docs/rendering.md) also gets `--allow-run` of
 *   that executable alone, `--allow-read` of it, `--allow-read` and `--allow-write` of the
 *   temporary directory (the browser's profile, which playwright-core creates and removes there)
 *   and the system's home directory and user id ({@link RENDER_SYS}).
 */
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

/** The program's root (the folder of deno.json). */
const ROOT = fromFileUrl(new URL("../../../", import.meta.url));

/** The worker's module. */
export const WORKER_URL = new URL("./worker_process.ts", import.meta.url);

/** What a worker process is started with. */
export interface WorkerCommand {
  /** The Deno executable. */
  command: string;
  args: string[];
  /** The whole environment (no variable of the server's is passed but those listed). */
  env: Record<string, string>;
  cwd: string;
}

/** What decides a worker's command line. */
export interface WorkerCommandOptions {
  /** The Deno executable (see {@link denoForWorkers}). */
  deno: string;
  /** V8 old-generation limit, in MB. */
  heapMb: number;
  /** V8 young-generation limit, in MB (each of its two semi-spaces is half). */
  youngMb: number;
  /**
   * The work may ask V8 to collect its garbage (`--expose-gc`): a stream job reading a long input
   * collects the pieces it has read at its own pace (lib/features/logs/read_job.ts), since V8
   * frees their buffers only once tens of MB of them have piled up.
   */
  exposeGc?: boolean;
  /** A local Chromium this worker may start to render (its path), or null. */
  chromium: string | null;
  /**
   * The worker's own temporary directory (TMPDIR): where a rendering worker's browser keeps its
   * profile; the only place it may write. Default: the system's.
   */
  tempDir?: string;
  /** The worker's module (tests: a stand-in); default {@link WORKER_URL}. */
  module?: URL;
  /**
   * Folders the worker may read besides the program's code: those of the modules it loads (the
   * pool names them; under lib/ in production), tests' stand-ins.
   */
  read?: string[];
}

/**
 * Environment variables a worker keeps: where Deno finds its module cache and the temporary
 * directory, nothing else (this is process plumbing, not configuration: lib/kit/config.ts reads that).
 */
const KEPT_ENV = ["DENO_DIR", "HOME", "XDG_CACHE_HOME", "TMPDIR", "NO_COLOR"];

/**
 * What starting a local Chromium asks of the system: playwright-core reads the home directory,
 * and lib/engines/render/browser.ts the user id (root cannot use Chromium's sandbox).
 */
const RENDER_SYS = ["homedir", "uid"];

/** The command line of a worker process. */
export function workerCommand(options: WorkerCommandOptions): WorkerCommand {
  const module = options.module ?? WORKER_URL;
  // Folders within the program's code folders are already granted: not named twice.
  const base = [`${ROOT}lib`, `${ROOT}node_modules`, `${ROOT}static/build`];
  const extra = [dirname(fromFileUrl(module)), ...(options.read ?? [])]
    .filter((d) => !base.some((b) => d === b || d.startsWith(`${b}/`)));
  const read = [...base, ...extra];
  const temp = options.tempDir ?? tempDir();
  const render = options.chromium
    ? [`--allow-run=${options.chromium}`, `--allow-write=${temp}`]
    : [];
  // The browser itself, and its profile in the temporary directory (removed after the scan).
  if (options.chromium) read.push(options.chromium, temp);
  const semiMb = Math.max(1, Math.floor(options.youngMb / 2));
  return {
    command: options.deno,
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--cached-only",
      `--config=${ROOT}deno.json`,
      "--allow-net",
      `--allow-read=${[...new Set(read)].join(",")}`,
      "--allow-env",
      `--allow-sys=${["setPriority", ...(options.chromium ? RENDER_SYS : [])].join(",")}`,
      ...render,
      `--v8-flags=--max-old-space-size=${options.heapMb},--max-semi-space-size=${semiMb}${
        options.exposeGc ? ",--expose-gc" : ""
      }`,
      fromFileUrl(module),
    ],
    env: {
      ...Object.fromEntries(
        KEPT_ENV.flatMap((name) => {
          const value = env(name);
          return value === undefined ? [] : [[name, value]];
        }),
      ),
      ...(options.tempDir ? { TMPDIR: options.tempDir } : {}),
      // Plain text on stderr: the pool quotes its last error line in a crash's message.
      NO_COLOR: "1",
    },
    cwd: ROOT,
  };
}

/**
 * The name under which this process may run Deno for its workers (see the module comment), or
 * null when it may not (the pool then cannot start: lib/app/server.ts says so at start-up).
 */
export function denoForWorkers(): string | null {
  const own = Deno.execPath();
  for (const command of [own, "deno"]) {
    try {
      if (Deno.permissions.querySync({ name: "run", command }).state === "granted") return command;
    } catch { /* not a name Deno can resolve */ }
  }
  return null;
}

/** The temporary directory (playwright-core creates the browser's profile there). */
function tempDir(): string {
  return env("TMPDIR") ?? "/tmp";
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
