/**
 * The configuration a worker process is given with each scan: the server's, without a secret. A
 * worker reads what strangers send; whatever such input might make of it, it holds no token,
 * password, key or sealing secret of the server's (tests/process_pool_test.ts sets
 * every secret the configuration reads and finds none of them in what a worker is sent). The
 * scanners read none of these fields.
 */
import type { Config } from "../config.ts";

/** `config` without its secrets. */
export function workerConfig(config: Config): Config {
  return {
    ...config,
    pipelineToken: undefined,
    turnstileSecretKey: undefined,
    altchaHmacKey: undefined,
    adminPasswordHash: undefined,
    adminPassword: undefined,
    upstash: undefined,
    secretBox: { secretKey: undefined, previousSecretKeys: [] },
    answers: {
      ...config.answers,
      providers: Object.fromEntries(
        Object.entries(config.answers.providers).map(([id, p]) => [id, { ...p, key: undefined }]),
      ) as Config["answers"]["providers"],
    },
  };
}
