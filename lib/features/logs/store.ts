/**
 * Server logs in Deno KV: the aggregates of each account's sites, one entry per day and crawler
 * (so an entry stays far under KV's 64 KiB value limit), merged on every upload, and the summaries
 * of the last reads. Every key starts with the service name, like lib/kit/storage/store.ts:
 *
 *   [svc, "log_days", accountId, domain, day, token] -> CrawlerDay   counters of one crawler on
 *                                                                    one day (expire after
 *                                                                    LOG_RETENTION_DAYS)
 *   [svc, "log_reads", accountId, domain, at, id]    -> StoredRead   a read's summary (format,
 *                                                                    counts, unreadable line
 *                                                                    numbers; no line), the last 20
 *   [svc, "log_sites", accountId, domain]            -> { lastRead } the sites with logs
 *
 * Nothing else of a log is stored: no line, no address, no User-Agent.
 */
import type { Aggregates, CrawlerDay } from "./aggregate.ts";
import { mergeAggregates } from "./aggregate.ts";
import type { ReadSummary } from "./read_log.ts";

/** A read as kept. */
export interface StoredRead {
  at: number;
  id: string;
  summary: ReadSummary;
}

const READS_KEPT = 20;
const DAY_MS = 86_400_000;

/** One service's server-log store. */
export class LogsStore {
  constructor(readonly kv: Deno.Kv, readonly service: string) {}

  #k(...parts: Deno.KvKeyPart[]): Deno.KvKey {
    return [this.service, ...parts];
  }

  /** Adds a read's aggregates into the account's site, day by day and crawler by crawler. */
  async addRead(
    accountId: string,
    domain: string,
    agg: Aggregates,
    summary: ReadSummary,
    now: number,
    retentionDays: number,
  ): Promise<void> {
    for (const [day, crawlers] of Object.entries(agg.days)) {
      const expireIn = Date.parse(`${day}T00:00:00Z`) + retentionDays * DAY_MS - now;
      if (expireIn <= 0) continue;
      for (const [token, counts] of Object.entries(crawlers)) {
        const key = this.#k("log_days", accountId, domain, day, token);
        for (let attempt = 0; attempt < 10; attempt++) {
          const known = await this.kv.get<CrawlerDay>(key);
          const merged = known.value
            ? mergeAggregates(
              { version: 1, days: { [day]: { [token]: known.value } } },
              { version: 1, days: { [day]: { [token]: counts } } },
            ).days[day][token]
            : counts;
          const ok = await this.kv.atomic().check(known).set(key, merged, { expireIn }).commit();
          if (ok.ok) break;
          if (attempt === 9) throw new Error("could not store the log's counters (conflicts)");
        }
      }
    }
    const id = crypto.randomUUID();
    await this.kv.set(this.#k("log_reads", accountId, domain, now, id), { at: now, id, summary });
    await this.kv.set(this.#k("log_sites", accountId, domain), { lastRead: now });
    const reads = await this.reads(accountId, domain, 1000);
    for (const old of reads.slice(READS_KEPT)) {
      await this.kv.delete(this.#k("log_reads", accountId, domain, old.at, old.id));
    }
  }

  /** The aggregates of an account's site. */
  async aggregates(accountId: string, domain: string): Promise<Aggregates> {
    const agg: Aggregates = { version: 1, days: {} };
    for await (
      const e of this.kv.list<CrawlerDay>({ prefix: this.#k("log_days", accountId, domain) })
    ) {
      const [day, token] = e.key.slice(-2) as [string, string];
      (agg.days[day] ??= {})[token] = e.value;
    }
    return agg;
  }

  /** The last reads of a site, newest first. */
  async reads(accountId: string, domain: string, limit = READS_KEPT): Promise<StoredRead[]> {
    const out: StoredRead[] = [];
    const iter = this.kv.list<StoredRead>(
      { prefix: this.#k("log_reads", accountId, domain) },
      { reverse: true, limit },
    );
    for await (const e of iter) out.push(e.value);
    return out;
  }

  /** The account's sites with logs, with their last read. */
  async sites(accountId: string): Promise<{ domain: string; lastRead: number }[]> {
    const out: { domain: string; lastRead: number }[] = [];
    for await (
      const e of this.kv.list<{ lastRead: number }>({ prefix: this.#k("log_sites", accountId) })
    ) {
      out.push({ domain: String(e.key[e.key.length - 1]), lastRead: e.value.lastRead });
    }
    return out;
  }
}
