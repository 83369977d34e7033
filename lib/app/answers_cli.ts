/**
 * `deno task answers <domain>` (lib/features/answers/cli.ts: its arguments, output and exit codes):
 * the entry point, which composes answer presence of the configured service as createServer does,
 * from the registry of services, the service's store, the watch list (the sites an account
 * watches) and the instance's secret box.
 */
import { serviceFor } from "./server.ts";
import { Store } from "../kit/storage/store.ts";
import { instanceSecretBox } from "../kit/auth/secret_box.ts";
import { WatchStore } from "../features/watch/store.ts";
import { createAnswersDeps } from "../features/answers/service.ts";
import { answersCli, type CliIo } from "../features/answers/cli.ts";

/** Runs the CLI; returns the exit code. */
export function main(
  args: string[],
  env?: Record<string, string | undefined>,
  io?: CliIo,
): Promise<number> {
  return answersCli(
    (config, kv) => {
      const service = serviceFor(config);
      return createAnswersDeps({
        kv,
        store: new Store(kv, service.name),
        service,
        config,
        watches: new WatchStore(kv, service.name),
        box: instanceSecretBox(kv, config.secretBox),
        now: Date.now,
        log: () => {},
      });
    },
    args,
    env,
    io,
  );
}

if (import.meta.main) Deno.exit(await main(Deno.args));
