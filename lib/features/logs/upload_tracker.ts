/**
 * Uploads from the account page while they are read, so the page can show how far each is (bytes
 * received, lines read) by asking for it: per process, per account, by an id the page chose, at
 * most {@link MAX_UPLOADS} kept and none longer than {@link KEEP_MS}. Nothing of the log is here:
 * counts only.
 */

/** What the page is told of an upload. */
export interface UploadState {
  domain: string;
  /** The body's stated size (its Content-Length). */
  stated: number;
  /** Bytes of the body received so far. */
  received: number;
  /** Bytes read after decompression, and lines. */
  bytes: number;
  lines: number;
  state: "reading" | "done" | "failed";
  /** Why it failed, in one sentence. */
  message?: string;
}

/** Uploads followed at once (the oldest is forgotten past it). */
export const MAX_UPLOADS = 200;
/** How long a finished or abandoned upload is kept. */
export const KEEP_MS = 15 * 60_000;

/** The uploads of one app. */
export class UploadTracker {
  #uploads = new Map<string, { at: number; upload: UploadState }>();

  constructor(readonly now: () => number) {}

  /** Starts following an upload (an id already in use for the account is replaced). */
  start(accountId: string, id: string, domain: string, stated: number): UploadState {
    const now = this.now();
    for (const [k, v] of this.#uploads) if (now - v.at > KEEP_MS) this.#uploads.delete(k);
    while (this.#uploads.size >= MAX_UPLOADS) {
      this.#uploads.delete(this.#uploads.keys().next().value!);
    }
    const upload: UploadState = {
      domain,
      stated,
      received: 0,
      bytes: 0,
      lines: 0,
      state: "reading",
    };
    this.#uploads.set(`${accountId}/${id}`, { at: now, upload });
    return upload;
  }

  /** An upload of the account, or null (another account's id is never found). */
  get(accountId: string, id: string): UploadState | null {
    return this.#uploads.get(`${accountId}/${id}`)?.upload ?? null;
  }
}
