/**
 * The runtime's floor for one answer: a bare `Deno.serve` on a loopback port answering every
 * request with the bytes of one file as `application/json` (a POST's body is read first: the
 * floor of a POST answered from a cache). tests/bench/serve_floor.ts runs it as a process of its
 * own, with the start task's V8 flags, next to the real server.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=<file> tests/bench/bare_server.ts <file>
 *
 * Prints "Listening on http://127.0.0.1:<port>/" once it serves.
 */
const body = await Deno.readFile(Deno.args[0]);
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`Listening on http://127.0.0.1:${port}/`),
}, async (req) => {
  if (req.method === "POST") await req.arrayBuffer();
  return new Response(body, { headers: { "content-type": "application/json" } });
});
