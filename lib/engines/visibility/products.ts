/**
 * The AI products a report is about, as people know them (ChatGPT, Claude, Perplexity, ...), each
 * fed by crawlers of the registry (crawlers_registry.ts names the product of every entry). The
 * report groups its crawler verdicts by these products; what each product can do with a site is
 * read from its crawlers' roles: search crawlers put pages in its search and citations, user
 * fetchers read a page a person asks about, training crawlers collect training data.
 */

/** A product a crawler feeds. */
export type ProductId =
  | "chatgpt"
  | "claude"
  | "perplexity"
  | "google"
  | "copilot"
  | "apple"
  | "meta"
  | "mistral"
  | "duckduckgo"
  | "amazon"
  | "you"
  | "parallel"
  | "kimi"
  | "commoncrawl"
  | "bytedance";

/** One product, as the report names it. */
export interface Product {
  id: ProductId;
  /** Its name in the report ("Gemini and Google's AI features"). */
  name: string;
  /** Its short name in sentences ("Google"). */
  short: string;
  /** The assistants most people use: shown first and named in the line under the score. */
  major: boolean;
}

/** Every product, in report order: the major assistants first, then the others of the registry. */
export const PRODUCTS: readonly Product[] = [
  { id: "chatgpt", name: "ChatGPT", short: "ChatGPT", major: true },
  { id: "claude", name: "Claude", short: "Claude", major: true },
  { id: "perplexity", name: "Perplexity", short: "Perplexity", major: true },
  {
    id: "google",
    name: "Gemini and Google's AI features",
    short: "Google's AI features",
    major: true,
  },
  { id: "copilot", name: "Copilot (and Bing)", short: "Copilot", major: true },
  { id: "apple", name: "Apple Intelligence and Siri", short: "Apple Intelligence", major: true },
  { id: "meta", name: "Meta AI", short: "Meta AI", major: true },
  { id: "mistral", name: "Mistral (Le Chat)", short: "Mistral", major: false },
  { id: "duckduckgo", name: "DuckDuckGo (DuckAssist)", short: "DuckAssist", major: false },
  { id: "amazon", name: "Amazon (Alexa, Rufus)", short: "Alexa", major: false },
  { id: "you", name: "You.com", short: "You.com", major: false },
  { id: "parallel", name: "Parallel (web APIs for AI)", short: "Parallel", major: false },
  { id: "kimi", name: "Kimi (Moonshot AI)", short: "Kimi", major: false },
  { id: "commoncrawl", name: "Common Crawl (open dataset)", short: "Common Crawl", major: false },
  { id: "bytedance", name: "ByteDance", short: "ByteDance", major: false },
];

/** A product by id (every id of {@link ProductId} is in {@link PRODUCTS}; tested). */
export function productOf(id: string): Product | null {
  return PRODUCTS.find((p) => p.id === id) ?? null;
}

/**
 * "ChatGPT", "ChatGPT and Claude", "ChatGPT, Claude and Perplexity": names joined as a sentence
 * says them.
 */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
