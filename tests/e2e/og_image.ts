/**
 * Draws the Open Graph images (static/og-visibility.png, static/og-schema.png, 1200x630) with
 * headless Chromium. Link previews (social networks, chat apps) need a raster image; SVG is not
 * accepted by most of them. The images are committed; run this again after changing the design:
 *
 *   deno task og-images
 */
import { launchBrowser } from "./browser.ts";

const CARDS = {
  visibility: {
    title: "AI Visibility Checker",
    line: "How visible is your site to ChatGPT, Perplexity, Claude and Google's AI answers?",
    chips: ["Score and grade", "Fixes in order", "Free, no account"],
  },
  schema: {
    title: "Schema Markup Generator",
    line: "See the structured data a page has, what is wrong with it, and JSON-LD ready to paste.",
    chips: ["JSON-LD, microdata, RDFa", "Findings with fixes", "Free, no account"],
  },
} as const;

function html(card: (typeof CARDS)[keyof typeof CARDS]): string {
  return `<!doctype html><html><head><style>
  body{margin:0;width:1200px;height:630px;font-family:system-ui,"DejaVu Sans",sans-serif;
    background:#1d3fbb;color:#fff;display:flex;align-items:center}
  .wrap{padding:72px 88px;display:flex;gap:64px;align-items:center}
  h1{font-size:68px;line-height:1.05;margin:0 0 24px}
  p{font-size:34px;line-height:1.3;margin:0 0 36px;color:#e6ebff;max-width:720px}
  .chips span{display:inline-block;font-size:24px;font-weight:600;border:2px solid #c7d2fe;
    border-radius:999px;padding:8px 20px;margin:0 12px 12px 0}
  svg{flex:none}
  </style></head><body><div class="wrap"><div><h1>${card.title}</h1><p>${card.line}</p>
  <div class="chips">${card.chips.map((c) => `<span>${c}</span>`).join("")}</div></div>
  <svg width="230" height="230" viewBox="0 0 120 120"><circle cx="60" cy="60" r="52" fill="none"
  stroke="#4f6bd8" stroke-width="12"/><circle cx="60" cy="60" r="52" fill="none" stroke="#86efac"
  stroke-width="12" stroke-linecap="round" stroke-dasharray="280 327" transform="rotate(-90 60 60)"/>
  <text x="60" y="72" text-anchor="middle" font-size="36" font-weight="800" fill="#fff"
  font-family="system-ui,sans-serif">A</text></svg></div></body></html>`;
}

if (import.meta.main) {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
    for (const [name, card] of Object.entries(CARDS)) {
      await page.setContent(html(card));
      const path = new URL(`../../static/og-${name}.png`, import.meta.url).pathname;
      await page.screenshot({ path, type: "png" });
      console.log(path);
    }
  } finally {
    await browser.close();
  }
}
