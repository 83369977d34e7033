/**
 * A worker process's watch on its server (lib/kit/isolate/worker_process.ts starts it as a Web Worker,
 * a thread of its own): once the server is gone (this process has a new parent), the process ends
 * itself with SIGKILL. The pool kills a worker at its time limit (lib/kit/isolate/process_pool.ts), and
 * an idle worker ends when its stdin closes; this covers the one case left, a server that died
 * (SIGKILL, a crash) while its worker ran code that never returns: that code holds the worker's
 * main thread, so only another thread can end the process. `Deno.exit` in a worker thread ends
 * only that thread in deno 2.9.6; a signal to the process ends every thread.
 */

/** How often the parent is checked. */
const CHECK_MS = 1000;

const parent = Deno.ppid;
setInterval(() => {
  if (Deno.ppid !== parent) Deno.kill(Deno.pid, "SIGKILL");
}, CHECK_MS);
