/**
 * The connection limits as the process really runs: the caps from the free descriptors and the
 * memory plan, the per-address share below the total, IPv6 counted per /64, the guard only in
 * front of a bind other than loopback, and the HTTP server behind the guard answering only what
 * came through it. The real server under flood: tests/security/connections_test.ts.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { loadConfig } from "../lib/kit/config.ts";
import { addressKey, connectionLimits } from "../lib/kit/net/conn_limits.ts";
import { freeDescriptors } from "../lib/kit/net/fd_limit.ts";
import { serveHttp } from "../lib/app/serve.ts";

Deno.test("[conn limits] the total follows the free descriptors and the memory share; one address gets a sixteenth, never more than half", () => {
  const counted = { free: 19_970, how: "19970 free file descriptors, counted at start-up" };
  // 20,000 descriptors, plenty of memory: (19,970 - 512) / 3.
  const big = connectionLimits({ max: 0, perIp: null }, counted, 4096);
  assert.equal(big.max, 6486);
  assert.equal(big.perIp, 256);
  assert.match(big.describe, /at most 6486 open \(19970 free file descriptors, counted/);
  // A 512 MB plan (31 MB for connections at 80 KiB each) bounds it before the descriptors do.
  const small = connectionLimits({ max: 0, perIp: null }, counted, 31);
  assert.equal(small.max, 396);
  assert.equal(small.perIp, 24);
  assert.match(small.describe, /31 MB of the memory plan at 80 KiB each/);
  // A default soft limit of 1024: (1010 - 512) / 3.
  const low = connectionLimits({ max: 0, perIp: null }, { free: 1010, how: "counted" }, 4096);
  assert.deepEqual([low.max, low.perIp], [166, 10]);
  // Set explicitly: kept, but one address never gets more than half.
  const set = connectionLimits({ max: 40, perIp: 100 }, null, 31);
  assert.deepEqual([set.max, set.perIp], [40, 20]);
  assert.match(set.describe, /MAX_CONNECTIONS_PER_IP=100 lowered to half the total/);
  // Behind a proxy: no per-address cap.
  assert.equal(connectionLimits({ max: 0, perIp: 0 }, counted, 4096).perIp, 0);
  // Nothing counted: 1024 assumed, and said.
  assert.match(connectionLimits({ max: 0, perIp: null }, null, 4096).describe, /1024 .*assumed/);
});

Deno.test("[conn limits] addresses: IPv6 counted per /64, IPv4-mapped as IPv4", () => {
  assert.equal(addressKey("203.0.113.7"), "203.0.113.7");
  assert.equal(addressKey("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(addressKey("2001:db8:aa:bb:1::5"), "2001:db8:aa:bb::/64");
  assert.equal(addressKey("2001:db8:aa:bb:ffff:ffff:ffff:ffff"), "2001:db8:aa:bb::/64");
  assert.notEqual(addressKey("2001:db8:aa:bc::1"), addressKey("2001:db8:aa:bb::1"));
});

Deno.test("[conn limits] free descriptors are counted until the system refuses one, all given back", () => {
  let open = 0;
  let closed = 0;
  const opener = (limit: number) => () => {
    if (open >= limit) throw new Error("Too many open files (os error 24)");
    open++;
    return { close: () => void closed++ };
  };
  assert.deepEqual(freeDescriptors(10_000, opener(700)), {
    free: 700,
    atLeast: false,
    how: "700 free file descriptors, counted at start-up",
  });
  assert.equal(closed, 700);
  open = closed = 0;
  assert.equal(freeDescriptors(100, opener(700))?.atLeast, true, "stops at its ceiling");
  assert.equal(closed, 100);
  // Any other failure (no read access to /dev/null): nothing counted.
  assert.equal(
    freeDescriptors(100, () => {
      throw new Deno.errors.NotCapable("Requires read access to /dev/null");
    }),
    null,
  );
  // The real one, in this process.
  const real = freeDescriptors(50_000);
  assert.ok(real && real.free > 100, JSON.stringify(real));
});

Deno.test("[conn limits] the guard is in front of a bind other than loopback, or when asked", () => {
  assert.equal(loadConfig({}).connections.guard, false, "the default loopback bind");
  assert.equal(loadConfig({ HOST: "0.0.0.0" }).connections.guard, true);
  assert.equal(loadConfig({ HOST: "::" }).connections.guard, true);
  assert.equal(loadConfig({ CONN_GUARD: "1" }).connections.guard, true);
  assert.equal(loadConfig({ HOST: "0.0.0.0", CONN_GUARD: "0" }).connections.guard, false);
  assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "x", CONN_GUARD: "1" }).connections.guard, false);
  assert.equal(loadConfig({}).connections.perIp, null, "derived from the total");
  assert.equal(loadConfig({ TRUST_PROXY: "1" }).connections.perIp, 0);
});

Deno.test("[conn limits] the HTTP server behind the guard answers only what came through the guard", async () => {
  const serving = serveHttp(
    {
      port: 0,
      onDeploy: false,
      loopbackOnly: true,
      connections: {
        guard: true,
        max: 10,
        perIp: 5,
        headerTimeoutMs: 10_000,
        keepAliveTimeoutMs: 10_000,
      },
    },
    (_req, info) => Response.json({ client: (info.remoteAddr as Deno.NetAddr).hostname }),
    { hostname: "127.0.0.1", limits: { max: 10, perIp: 5, describe: "test" }, log: () => {} },
  );
  try {
    assert.match(serving.describe, /^Connections: guarded \(CONN_GUARD=1\): test/);
    const through = await fetch(`http://127.0.0.1:${serving.addr.port}/`);
    assert.deepEqual(await through.json(), { client: "127.0.0.1" });
    // Straight to the inner port, as any local process could: refused.
    const inner = serving.inner!;
    const direct = await new Promise<string>((resolve) => {
      let data = "";
      const s = net.connect({ port: inner.port, host: inner.hostname });
      s.setEncoding("latin1");
      s.on("connect", () => s.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
      s.on("data", (d: string) => {
        data += d;
        if (data.includes("}")) s.destroy();
      });
      s.on("close", () => resolve(data));
      s.on("error", () => resolve(data));
    });
    assert.match(direct, /^HTTP\/1\.1 403 /);
    assert.match(direct, /Connect through the server's public address/);
  } finally {
    await serving.close();
  }
});
