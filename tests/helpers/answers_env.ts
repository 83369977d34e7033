/**
 * The world of the answer-presence tests: the in-process app with its worker, the vendors as the
 * loopback replay server (ANSWERS_RESOLVE), the watched site as a loopback copy of the good.test
 * fixture served under that name (the fixtures' answers cite it) whose robots.txt blocks
 * PerplexityBot, three operator keys (Gemini left unconfigured), and an account watching the site.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { PIPELINE, startAppEnv, type TestEnv } from "./app_env.ts";
import { type MutableSite, startMutableSite } from "./watch_env.ts";
import { type Replay, startReplay } from "./answers_replay.ts";
import { createApiKey } from "../../lib/kit/auth/keys.ts";
import { answersOf, idle } from "../../lib/features/answers/context.ts";

export const DOMAIN = "good.test";
/** The sealing key of users' vendor keys in tests (WATCH_SECRET_KEY: 32 characters or more). */
export const TEST_SEALING_KEY = "test-sealing-key-0123456789abcdef-0001";
export const OPERATOR_KEYS = {
  OPENAI_API_KEY: "sk-operator-openai-0001",
  PERPLEXITY_API_KEY: "pplx-operator-0002",
  ANTHROPIC_API_KEY: "sk-ant-operator-0003",
};
export const USER_GEMINI_KEY = "AIza-user-own-gemini-key-0004";

export interface World {
  env: TestEnv;
  site: MutableSite;
  replay: Replay;
  logs: Record<string, unknown>[];
  /** An account's key, the account watching DOMAIN. */
  key: string;
  close(): Promise<void>;
}

export async function world(env: Record<string, string> = {}): Promise<World> {
  const site = await startMutableSite(DOMAIN);
  site.setRobots(`User-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n`);
  const replay = startReplay();
  const app = await startAppEnv({
    worker: true,
    extraResolve: [`${DOMAIN}=127.0.0.1:${site.port}`],
    env: {
      ANSWERS_RESOLVE: replay.resolve,
      ...OPERATOR_KEYS,
      ANSWERS_ACCOUNT_CALLS_PER_DAY: "20",
      ANSWERS_GLOBAL_CALLS_PER_DAY: "30",
      // These tests count small runs by hand: 3 answers a question, no canary, and the fair share
      // as wide as the pool (tests/features/answers/answers_floor_test.ts runs the defaults).
      ANSWERS_SAMPLES: "3",
      ANSWERS_CANARY: "0",
      ANSWERS_ACCOUNT_SHARE_PERCENT: "100",
      ANSWERS_OPERATOR_RESERVE_PERCENT: "0",
      ANSWERS_USER_KEYS: "1",
      WATCH_SECRET_KEY: TEST_SEALING_KEY,
      ...env,
    },
  });
  const a = answersOf(app.deps);
  a.sleep = () => Promise.resolve();
  const logs: Record<string, unknown>[] = [];
  a.log = (e) => logs.push(e);
  const { key } = await createApiKey(app.store, app.service.keyPrefix, {
    name: "ci",
    accountId: "acct-answers-1",
    now: app.clock.now,
  });
  const watched = await call(app, key, "POST", "/api/watches", { url: DOMAIN });
  assertEquals(watched.status, 201);
  return {
    env: app,
    site,
    replay,
    logs,
    key,
    close: async () => {
      await app.close();
      await site.close();
      await replay.close();
    },
  };
}

export function call(
  env: TestEnv,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
) {
  return Promise.resolve(env.handler(
    new Request(`http://localhost${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    }),
  ));
}

/** Scans the watched site for real and waits for its record. */
export async function scanned(env: TestEnv): Promise<void> {
  const res = await env.scan({ url: DOMAIN }, { auth: `Bearer ${PIPELINE}` });
  await res.body?.cancel();
  for (let i = 0; i < 400; i++) {
    if ((await env.store.getScan(DOMAIN)) && !(await env.store.getInflight(DOMAIN))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the scan was not stored");
}

/** Starts a run and waits for it to end; returns the run with its answers. */
export async function run(w: World, key = w.key) {
  const started = await call(w.env, key, "POST", `/api/answers/${DOMAIN}/runs`);
  assertEquals(started.status, 202, await started.clone().text());
  const { run } = await started.json();
  assertEquals(run.status, "running");
  await idle(answersOf(w.env.deps));
  const res = await call(w.env, key, "GET", run.links.self);
  assertEquals(res.status, 200);
  return await res.json();
}
