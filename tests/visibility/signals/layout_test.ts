/**
 * The signals' layout, checked: every registered signal `<pillar>.<name>` is the one signal its
 * module `lib/engines/visibility/signals/<pillar>/<name>.ts` exports, is listed under the pillar it names,
 * and has its test at `tests/visibility/signals/<pillar>/<name>_test.ts`; no module or test in those
 * folders is left without a registered signal.
 */
import assert from "node:assert/strict";
import { PILLARS } from "../../../lib/engines/visibility/signals/registry.ts";
import type { SignalDef } from "../../../lib/engines/visibility/signal.ts";

const LIB = new URL("../../../lib/engines/visibility/signals/", import.meta.url);
const TESTS = new URL("./", import.meta.url);

async function files(dir: URL): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".ts")) out.push(e.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort();
}

const isSignal = (v: unknown): v is SignalDef =>
  !!v && typeof v === "object" && "id" in v && "check" in v && "fix" in v && "learn" in v;

Deno.test("signals layout - one module per signal, named for it, exporting it and no other signal", async () => {
  for (const pillar of PILLARS) {
    for (const def of pillar.signals) {
      const [prefix, name] = def.id.split(".");
      assert.equal(prefix, pillar.id, def.id);
      assert.equal(def.pillar, pillar.id, def.id);
      const mod = await import(new URL(`${pillar.id}/${name}.ts`, LIB).href);
      const exported = Object.values(mod).filter(isSignal);
      assert.deepEqual(exported.map((s) => s.id), [def.id], `${pillar.id}/${name}.ts`);
      assert.equal(exported[0], def, `${def.id}: the registry lists the module's own object`);
    }
  }
});

Deno.test("signals layout - every signal has its test in the mirrored path, and nothing is orphaned", async () => {
  for (const pillar of PILLARS) {
    const names = pillar.signals.map((s) => s.id.split(".")[1]);
    assert.deepEqual(
      await files(new URL(`${pillar.id}/`, LIB)),
      names.map((n) => `${n}.ts`).sort(),
      `lib/engines/visibility/signals/${pillar.id}/ holds exactly the registered signals`,
    );
    assert.deepEqual(
      await files(new URL(`${pillar.id}/`, TESTS)),
      names.map((n) => `${n}_test.ts`).sort(),
      `tests/visibility/signals/${pillar.id}/ holds one test per registered signal`,
    );
  }
});
