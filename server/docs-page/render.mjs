// Open a /docs page in Debian's headless Chromium and report what a person would see, as JSON on stdout:
//   node render.mjs URL [SCREENSHOT.png]
// { status, title, operationIds: [as rendered], servers: ["Try it out" targets], requests: [every URL the
//   browser asked for], tryItOut: {status, body} of getHealth run from the page, problems: [console errors,
//   page errors, failed requests] }. Bounded: every wait has a timeout, and the browser is closed in any case.
import { chromium } from "playwright-core";

const [url, screenshot] = process.argv.slice(2);
if (!url) {
  console.error("usage: node render.mjs URL [SCREENSHOT.png]");
  process.exit(2);
}
const TIMEOUT_MS = 60_000;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  timeout: TIMEOUT_MS,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const context = await browser.newContext();
  const requests = [];
  const problems = [];
  context.on("request", (request) => requests.push(request.url()));
  context.on("requestfailed", (request) =>
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  const response = await page.goto(url, { waitUntil: "load", timeout: TIMEOUT_MS });
  await page.waitForSelector(".opblock-summary-operation-id", { timeout: TIMEOUT_MS });
  await page.waitForLoadState("networkidle", { timeout: TIMEOUT_MS });
  const operationIds = await page.$$eval(".opblock-summary-operation-id", (nodes) =>
    nodes.map((node) => node.textContent.trim()),
  );
  const title = await page.title();
  const servers = await page.$$eval(".servers select option", (nodes) => nodes.map((node) => node.value));
  // What a person does next: open getHealth, "Try it out", "Execute", and read the live answer.
  const operationId = page.locator(".opblock-summary-operation-id", { hasText: /^getHealth$/ });
  const operation = page.locator(".opblock").filter({ has: operationId });
  await operation.locator(".opblock-summary").first().click({ timeout: TIMEOUT_MS });
  await operation.locator(".try-out__btn").click({ timeout: TIMEOUT_MS });
  await operation.locator(".execute").click({ timeout: TIMEOUT_MS });
  const live = operation.locator(".live-responses-table tr.response .response-col_status").first();
  await live.waitFor({ timeout: TIMEOUT_MS });
  const body = operation.locator(".live-responses-table tr.response .response-col_description pre").first();
  const tryItOut = { status: (await live.textContent()).trim(), body: (await body.textContent()).trim() };
  await page.waitForLoadState("networkidle", { timeout: TIMEOUT_MS });
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: false });
  process.stdout.write(JSON.stringify({ status: response?.status(), title, operationIds, servers, tryItOut, requests, problems }) + "\n");
} finally {
  await browser.close();
}
