import { launchBrowser } from "./browser.ts";
import { startWebServer } from "./web_server.ts";
import { PIPELINE } from "../helpers/app_env.ts";
const server = await startWebServer();
const browser = await launchBrowser();
try {
  for (const domain of ["no-llms.test", "edge-blocks-bots.test"]) {
    const res = await server.env.scan({ url: domain }, {
      ip: "203.0.113.10",
      auth: `Bearer ${PIPELINE}`,
    });
    await res.body?.cancel();
    for (let i = 0; i < 300 && !(await server.env.store.getScan(domain)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  for (
    const [size, viewport] of Object.entries({
      desktop: { width: 1280, height: 900 },
      phone: { width: 390, height: 844 },
    })
  ) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    for (
      const path of ["/report/no-llms.test", "/report/edge-blocks-bots.test", "/learn/access.edge"]
    ) {
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("networkidle");
      const name = path.replace(/\W+/g, "_");
      await page.screenshot({
        path: `/tmp/shots18/${name}-${size}.png`,
        fullPage: size === "phone" ? false : false,
      });
      const bottom = await page.evaluate(() =>
        document.querySelector("#top-fixes")?.getBoundingClientRect().bottom + scrollY
      );
      console.log(path, size, "top-fixes bottom", bottom);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
