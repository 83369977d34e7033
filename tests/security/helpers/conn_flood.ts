/**
 * A connection flood, in its own process so its sockets do not count against the test's file
 * limit: opens `idle` connections that never send a byte and `slow` connections that send an
 * unfinished request head (slowloris), spread over the loopback source addresses 127.0.0.2 ...
 * (at most `perAddress` from each), and keeps them. Prints one JSON line when all are open, and
 * another with the state of every connection each time a line arrives on stdin; exits when stdin
 * closes.
 *
 *   deno run -A tests/security/helpers/conn_flood.ts <port> <idle> <slow> <perAddress> [first]
 *
 * `first`: the last octet of the first source address (default 2).
 */
import net from "node:net";

const [port, idle, slow, perAddress, first = 2] = Deno.args.map(Number);

/** What became of one connection. */
type State = "open" | "refused" | "timedOut" | "closed" | "error";

const states: State[] = [];
const sockets: net.Socket[] = [];

function open(i: number, slowloris: boolean): Promise<void> {
  const local = `127.0.0.${first + Math.floor(i / perAddress)}`;
  return new Promise((resolve) => {
    let data = "";
    const s = net.connect({ port, host: "127.0.0.1", localAddress: local });
    sockets.push(s);
    states[i] = "open";
    s.setEncoding("latin1");
    s.on("connect", () => {
      if (slowloris) s.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: a");
      resolve();
    });
    s.on("data", (d: string) => (data += d));
    s.on("error", () => {
      if (states[i] === "open") states[i] = "error";
      resolve();
    });
    s.on("close", () => {
      if (states[i] !== "open") return;
      states[i] = data.startsWith("HTTP/1.1 503")
        ? "refused"
        : data.startsWith("HTTP/1.1 408")
        ? "timedOut"
        : "closed";
    });
  });
}

function counts(): Record<string, number> {
  const c: Record<string, Record<string, number>> = { idle: {}, slow: {} };
  states.forEach((st, i) => {
    const kind = i < idle ? "idle" : "slow";
    c[kind][st] = (c[kind][st] ?? 0) + 1;
  });
  return c as unknown as Record<string, number>;
}

const started = performance.now();
// A few hundred connects at a time: the server's accept queue is 511 deep.
const total = idle + slow;
for (let i = 0; i < total; i += 256) {
  const batch = [];
  for (let j = i; j < Math.min(total, i + 256); j++) batch.push(open(j, j >= idle));
  await Promise.all(batch);
}
console.log(
  JSON.stringify({ opened: total, ms: Math.round(performance.now() - started), ...counts() }),
);

const decoder = new TextDecoder();
for await (const chunk of Deno.stdin.readable) {
  if (decoder.decode(chunk).includes("\n")) console.log(JSON.stringify(counts()));
}
for (const s of sockets) s.destroy();
Deno.exit(0);
