/**
 * The texts behind "Learn more", keyed by signal id (see learn.ts for how they are served). Plain
 * words first: the reader may never have heard of robots.txt or JSON-LD.
 */
import type { SourceKey } from "./learn_sources.ts";

/** One check's explanation; `sources` name entries of SOURCES in learn.ts. */
export interface LearnText {
  title: string;
  what: string;
  why: string;
  how: string;
  sources: SourceKey[];
}

const CRAWLERS: SourceKey[] = ["openai", "anthropic", "perplexity", "googleCrawlers"];

/** Every signal id the pillars emit (lib/visibility/pillars/), with its explanation. */
export const LEARN_TEXTS: Record<string, LearnText> = {
  "access.robots_txt": {
    title: "robots.txt is readable",
    what:
      "robots.txt is a small text file at the root of a site (example.com/robots.txt) that tells crawlers which parts they may read.",
    why:
      "Every well-behaved AI crawler reads it first. If it answers with a server error, crawlers following RFC 9309 must assume the whole site is off limits.",
    how:
      "We fetch /robots.txt and note its status: a file or a 404 is fine, a 5xx or a time-out is not; we also flag rules we cannot parse.",
    sources: ["rfc9309", "googleRobots"],
  },
  "access.blanket_disallow": {
    title: "No blanket Disallow for all crawlers",
    what:
      "A `User-agent: *` group with `Disallow: /` asks every crawler that has no group of its own to stay out of the whole site.",
    why:
      "It shuts out AI search crawlers along with everything else, which is rarely what the site owner meant.",
    how:
      "We match the rules the way RFC 9309 says (the most specific group wins, longest matching rule wins) and check whether the home page is disallowed for crawlers without their own group. It caps the score.",
    sources: ["rfc9309", "googleRobots"],
  },
  "access.search_crawlers": {
    title: "AI search crawlers allowed",
    what:
      "AI search engines (ChatGPT search, Perplexity, Claude, Google's AI answers, Bing/Copilot) send their own crawlers, such as OAI-SearchBot, PerplexityBot and Claude-SearchBot, to find pages to cite.",
    why:
      "A search crawler that robots.txt blocks cannot put the site in that engine's answers. The vendors say so in their own documentation.",
    how:
      "We evaluate robots.txt for each search crawler's exact product token, with RFC 9309 group matching, and list which line decides. All of them blocked caps the score.",
    sources: [...CRAWLERS, "rfc9309"],
  },
  "access.user_fetchers": {
    title: "Assistants fetching for users allowed",
    what:
      "When someone asks ChatGPT, Claude or Perplexity about a page, the assistant fetches it live with a user agent such as ChatGPT-User, Claude-User or Perplexity-User.",
    why:
      "Blocking them stops assistants from reading the page a person asked about, so they answer without it.",
    how: "We evaluate robots.txt for each user-fetch agent's product token, as RFC 9309 says.",
    sources: ["openai", "anthropic", "perplexity", "rfc9309"],
  },
  "access.training_crawlers": {
    title: "Training crawlers (your choice)",
    what:
      "Some crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot and others) collect pages to train AI models, not to answer questions.",
    why:
      "Blocking them is a legitimate choice about your content; it does not remove you from AI search. We report it and do not score it.",
    how: "We list which training crawlers robots.txt allows or blocks, with the deciding line.",
    sources: ["openai", "anthropic", "googleCrawlers", "commonCrawl"],
  },
  "access.indexing": {
    title: "Page may be indexed and quoted",
    what:
      'A page can ask not to be indexed or quoted with a robots meta tag (`<meta name="robots" content="noindex">`) or an X-Robots-Tag header.',
    why:
      "noindex keeps the page out of the indexes AI answers draw on; nosnippet and similar rules stop it being quoted.",
    how:
      "We read the robots meta tags and the X-Robots-Tag header of the home page, including rules aimed at a named crawler. noindex caps the score.",
    sources: ["robotsMeta", "blockIndexing"],
  },
  "access.edge": {
    title: "Edge (CDN/firewall) lets AI crawlers through",
    what:
      'Many sites sit behind a CDN or firewall that can block bots before robots.txt is even read, answering with an error or a "checking your browser" page.',
    why:
      "An AI crawler that gets a 403 or a challenge page sees no content at all, even when robots.txt allows it.",
    how:
      "We fetch the home page a second time with an AI search crawler's User-Agent (and once with a training crawler's) and compare: a 401, 403, 429, 451 or 503, or a challenge page, where our own request got the page, means the edge turns them away. It caps the score.",
    sources: ["openai", "anthropic", "perplexity"],
  },
  "content.server_text": {
    title: "Content is in the server HTML",
    what:
      "The text of a page can be in the HTML the server sends, or be added later by JavaScript in the browser.",
    why:
      "Most AI crawlers do not run JavaScript. Text that only appears after scripts run is invisible to them.",
    how:
      'We count the words of visible text in the HTML as served (no JavaScript run) and look for empty app shells such as `<div id="root"></div>`. Almost no text caps the score.',
    sources: ["javascript", "aiFeatures"],
  },
  "content.headings": {
    title: "Clear heading outline",
    what: "Headings (one `<h1>`, then `<h2>` and `<h3>`) give a page its outline.",
    why:
      "AI systems split pages into passages by heading; a clear outline helps them find and quote the right part.",
    how: "We check for exactly one h1 and at least two subheadings, in order.",
    sources: ["helpful"],
  },
  "content.lang": {
    title: "Language declared",
    what: '`<html lang="en">` states the language a page is written in.',
    why: "It tells AI systems which audience and which questions the page serves.",
    how: "We read the lang attribute of the html element.",
    sources: ["helpful"],
  },
  "content.semantic_html": {
    title: "Semantic HTML landmarks",
    what:
      "Elements such as `<main>`, `<article>`, `<nav>` and `<footer>` say which part of a page is the content and which is navigation.",
    why: "They help crawlers keep menus and footers out of what they quote.",
    how: "We look for main or article, and for the other landmarks.",
    sources: ["helpful"],
  },
  "content.answer_shaped": {
    title: "Answer-shaped content",
    what:
      "Questions as headings, short paragraphs that answer them, lists and tables: content shaped like the answers people look for.",
    why: "AI answers quote passages that answer a question directly.",
    how:
      "We count question-style headings, FAQ-like blocks (details, definition lists), lists, tables and substantial paragraphs.",
    sources: ["helpful", "aiFeatures"],
  },
  "content.image_alt": {
    title: "Images have alt text",
    what: "The alt attribute describes an image in words.",
    why: "Crawlers read words, not pictures; alt text tells them what an image shows.",
    how: "We count the images of the home page that have an alt attribute.",
    sources: ["helpful"],
  },
  "structured.jsonld": {
    title: "JSON-LD structured data present and valid",
    what:
      'JSON-LD is a block of machine-readable facts in the page (`<script type="application/ld+json">`) that says, with schema.org words, who you are and what the page is.',
    why:
      "It lets search engines and AI systems understand the page without guessing. Google recommends JSON-LD for structured data.",
    how: "We find every JSON-LD block on the home page and check that it parses.",
    sources: ["structuredData"],
  },
  "structured.organization": {
    title: "Organization (or Person) described",
    what:
      "An Organization (or Person) node names who runs the site, with its logo, address and official profiles.",
    why: "It ties the site to an entity that AI systems and knowledge graphs can recognise.",
    how:
      "We look for an Organization, a subtype of it, or a Person in the structured data, and check its name, url and logo.",
    sources: ["organization"],
  },
  "structured.website": {
    title: "WebSite node",
    what: "A WebSite node states the site's name and address.",
    why: "Google uses it to choose the site name it shows; AI systems use it to name the source.",
    how: "We look for a WebSite node with a name and url.",
    sources: ["siteNames"],
  },
  "structured.page_type": {
    title: "The page's own type is stated",
    what: "A node such as WebPage, Article or Product says what this page itself is.",
    why: "It tells machines what kind of answer the page can give.",
    how: "We look for a node describing the page (WebPage or a more specific type).",
    sources: ["structuredData"],
  },
  "structured.same_as": {
    title: "sameAs links to the entity's profiles",
    what:
      "sameAs lists the official profiles of the same organisation elsewhere: Wikidata, Wikipedia, LinkedIn, social networks.",
    why: "It lets AI systems confirm that these profiles and your site are one entity.",
    how: "We read the sameAs of the Organization or Person and count the profile links.",
    sources: ["sameAs", "organization"],
  },
  "structured.breadcrumb": {
    title: "BreadcrumbList",
    what: "A BreadcrumbList states where a page sits in the site (Home > Blog > Post).",
    why: "It shows machines how the site is organised.",
    how: "We look for a BreadcrumbList node.",
    sources: ["breadcrumb"],
  },
  "discovery.llms_txt": {
    title: "llms.txt present and well-formed",
    what:
      "llms.txt is a proposed Markdown file at example.com/llms.txt that summarises the site for language models and links its important pages.",
    why:
      "It gives AI tools a short, clean map of the site. It is young and optional: Google says it is not needed for its AI features.",
    how:
      "We fetch /llms.txt and check the format of the proposal: an H1 title, a summary and lists of links.",
    sources: ["llmstxt", "aiFeatures"],
  },
  "discovery.llms_full": {
    title: "llms-full.txt (optional)",
    what: "llms-full.txt is the companion of llms.txt with the full text of the key pages.",
    why: "Some AI tools load it in one go instead of crawling; it is optional.",
    how: "We fetch /llms-full.txt and note whether it is there.",
    sources: ["llmstxt"],
  },
  "discovery.sitemap": {
    title: "Sitemap healthy",
    what: "A sitemap is an XML list of the pages of a site, usually at /sitemap.xml.",
    why: "Crawlers use it to find every page and to see what changed recently.",
    how:
      "We fetch the sitemap that robots.txt names (or /sitemap.xml) and check that it is a valid sitemap or sitemap index with URLs.",
    sources: ["sitemaps", "buildSitemap"],
  },
  "discovery.sitemap_in_robots": {
    title: "robots.txt names the sitemap",
    what: "A `Sitemap:` line in robots.txt tells every crawler where the sitemap is.",
    why: "Crawlers other than Google's rarely guess the address.",
    how: "We look for Sitemap lines in robots.txt.",
    sources: ["sitemaps", "rfc9309"],
  },
  "trust.about_contact": {
    title: "About and contact pages linked",
    what:
      "Links to an About page and a Contact page say who is behind the site and how to reach them.",
    why:
      "Clear ownership is one of the signs search engines use to judge whether a source is trustworthy.",
    how: "We look for links to about and contact pages on the home page.",
    sources: ["helpful"],
  },
  "trust.author_dates": {
    title: "Authorship and dates stated",
    what: "Who wrote the content and when it was published or updated.",
    why: "AI answers prefer sources that are current and written by someone identifiable.",
    how:
      "We look for authors and dates in the structured data, meta tags and time elements of the home page.",
    sources: ["helpful"],
  },
  "trust.brand": {
    title: "Consistent brand name",
    what: "The name the site gives itself in its title, structured data and Open Graph tags.",
    why: "One name everywhere lets AI systems recognise the entity and credit it.",
    how: "We compare the names stated in the title, og:site_name and the JSON-LD.",
    sources: ["siteNames"],
  },
  "trust.wikidata": {
    title: "Wikidata entity",
    what:
      "Wikidata is the open database of entities (people, organisations, places) behind Wikipedia.",
    why:
      "Knowledge graphs and AI systems use it to tell who is who; an item with your official website (P856) ties your domain to the entity.",
    how: "We ask Wikidata for an item whose official website is this domain, then by name.",
    sources: ["wikidata"],
  },
  "trust.wikipedia": {
    title: "Wikipedia article",
    what: "An article about the organisation on Wikipedia.",
    why: "Wikipedia is among the most cited sources in AI answers and in training data.",
    how: "We look for the Wikipedia article of the Wikidata item, then search by name.",
    sources: ["wikidata"],
  },
  "trust.common_crawl": {
    title: "In Common Crawl",
    what: "Common Crawl is a free public archive of the web, collected by its crawler CCBot.",
    why: "Many language models learn from it; a site missing from it is missing from them.",
    how: "We ask the Common Crawl index for captures of the domain in its latest crawls.",
    sources: ["commonCrawl"],
  },
  "technical.status": {
    title: "Home page answers 200 with a short redirect chain",
    what: 'The home page should answer "200 OK", after at most a redirect or two.',
    why: "Crawlers give up on errors and long redirect chains.",
    how: "We follow the redirects of the home page and record each hop and the final status.",
    sources: ["googleCrawlers"],
  },
  "technical.https": {
    title: "Served over HTTPS",
    what: "HTTPS encrypts the connection between the visitor and the site.",
    why: "Search engines and AI systems prefer secure sources.",
    how: "We check that the home page, after its redirects, is served from an https:// address.",
    sources: ["helpful"],
  },
  "technical.title": {
    title: "Descriptive title",
    what: "The `<title>` of a page, shown in browser tabs and search results.",
    why: "It is the label AI answers and search results use when they cite the page.",
    how: "We check that the title exists and is between 10 and 70 characters.",
    sources: ["titleLink"],
  },
  "technical.description": {
    title: "Meta description",
    what: '`<meta name="description">` summarises the page in a sentence or two.',
    why: "Search engines and assistants use it to describe the page when they link it.",
    how: "We check that it exists and is between 50 and 170 characters.",
    sources: ["snippet"],
  },
  "technical.canonical": {
    title: "Canonical URL",
    what: '`<link rel="canonical">` names the one address of a page that has several.',
    why: "It makes crawlers credit one URL instead of splitting signals between copies.",
    how: "We read the canonical link and check that it points to this page on this site.",
    sources: ["canonical"],
  },
  "technical.open_graph": {
    title: "Open Graph metadata",
    what: "og:title, og:description and og:image describe a page for link previews.",
    why: "Chat apps, assistants and social networks use them to label links to you.",
    how: "We look for the three tags.",
    sources: ["snippet"],
  },
  "technical.response_time": {
    title: "Fast first byte",
    what: "How long the server takes to start answering.",
    why: "AI crawlers and assistants fetching live work on tight time budgets.",
    how:
      "We measure the time to the first byte of the home page: under 800 ms passes, over 2 s fails.",
    sources: ["googleCrawlers"],
  },
  "technical.page_size": {
    title: "Page size crawlers read in full",
    what: "The size of the home page's HTML.",
    why: "Crawlers stop reading very large pages part-way; what comes after is lost.",
    how: "We measure the HTML as downloaded.",
    sources: ["googleCrawlers"],
  },
  "technical.viewport": {
    title: "Mobile viewport",
    what: '`<meta name="viewport">` makes a page fit a phone screen.',
    why:
      "Google indexes the mobile version of pages; a page that is not mobile-ready is a weaker source.",
    how: "We look for the viewport meta tag.",
    sources: ["helpful"],
  },
};
