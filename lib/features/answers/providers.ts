/** The answer-presence providers, in the order reports list them. */
import { NotFoundError } from "../../kit/errors.ts";
import type { ProviderAdapter, ProviderId } from "./provider.ts";
import { openai } from "./openai.ts";
import { perplexity } from "./perplexity.ts";
import { anthropic } from "./anthropic.ts";
import { gemini } from "./gemini.ts";

/** Every provider. */
export const PROVIDERS: readonly ProviderAdapter[] = [openai, perplexity, anthropic, gemini];

/** A provider by id. */
export function providerOf(id: ProviderId): ProviderAdapter {
  return PROVIDERS.find((p) => p.id === id)!;
}

/** True for a provider id. */
export function isProviderId(value: string): value is ProviderId {
  return PROVIDERS.some((p) => p.id === value);
}

/** The provider id a URL names. @throws NotFoundError (404) for any other value. */
export function requireProviderId(value: string): ProviderId {
  if (!isProviderId(value)) throw new NotFoundError(`No provider ${value}`);
  return value;
}
