import { expect, type Page, test } from "@playwright/test";

/**
 * Memories and messages are shown as text everywhere: markup or script in them must never run or become elements.
 * Each payload would set window.__pwned (or open a dialog) if it were rendered as HTML or followed as a link.
 */
const API_PAYLOADS = [
  "Zebra fact one <script>window.__pwned=1</script>",
  'Zebra fact two <img src=x onerror="window.__pwned=1">',
  'Zebra fact three <a href="javascript:window.__pwned=1">click me</a>',
  "Zebra fact four <svg onload=alert(1)><circle r=77 /></svg>",
  "Zebra fact five [click](javascript:window.__pwned=1) and ![pic](javascript:alert(1))",
];
/** The offline model saves each sentence and clause of a message as its own fact, so this one is a single clause. */
const CHAT_PAYLOAD = "zebra secret <img src=x onerror=alert(1)><svg onload=__pwned=1>";
const CHAT_MESSAGE = `Remember that ${CHAT_PAYLOAD}`;
const SAVED_FROM_CHAT = `Zebra secret <img src=x onerror=alert(1)><svg onload=__pwned=1>`;
const EDITED = 'Zebra fact one edited <iframe src="javascript:alert(1)"></iframe><b onmouseover=alert(1)>bold</b>';

/** Dialogs fired and CSP violations seen on the page (a blocked inline script would be one). */
async function guard(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(event.violatedDirective));
  });
  return dialogs;
}

/** Nothing ran, nothing became an element: no handler attributes, script-URL links, payload tags or violations. */
async function expectInert(page: Page, dialogs: string[], where: string) {
  const report = await page.evaluate(() => {
    const elements = [...document.querySelectorAll("*")];
    return {
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      handlers: elements.flatMap((element) =>
        [...element.attributes]
          .filter((attribute) => attribute.name.toLowerCase().startsWith("on"))
          .map((attribute) => `${element.tagName}[${attribute.name}]`),
      ),
      scriptUrls: elements
        .flatMap((element) =>
          ["href", "src", "action", "formaction", "xlink:href"].map((name) => element.getAttribute(name)),
        )
        .filter((value) => value?.trim().toLowerCase().startsWith("javascript:")),
      injected: [...document.querySelectorAll('img[src="x"], iframe, svg[onload], b[onmouseover], circle[r="77"]')].map(
        (element) => element.outerHTML.slice(0, 120),
      ),
      // Next's own data scripts carry the text inside JSON strings; an injected script would consist of the payload.
      payloadScripts: [...document.scripts].filter((script) => /^\s*(window\.)?__pwned=1\s*$/.test(script.text)).length,
      violations: (window as unknown as { __cspViolations: string[] }).__cspViolations,
    };
  });
  expect(report.pwned, where).toBeUndefined();
  expect(report.handlers, where).toEqual([]);
  expect(report.scriptUrls, where).toEqual([]);
  expect(report.injected, where).toEqual([]);
  expect(report.violations, where).toEqual([]);
  expect(report.payloadScripts, where).toBe(0);
  expect(dialogs, where).toEqual([]);
}

async function expectText(page: Page, text: string, where: string) {
  await expect(page.getByText(text, { exact: false }).first(), `${where}: ${text}`).toBeVisible();
}

test("memories and messages carrying HTML, script and javascript: links show as text everywhere and never run", async ({
  page,
}) => {
  const dialogs = await guard(page);
  await page.goto("/");

  const created: Record<string, string> = {};
  for (const content of API_PAYLOADS) {
    const response = await page.request.post("/api/v1/memories", { data: { content } });
    expect(response.status()).toBe(201);
    created[content] = ((await response.json()) as { memory: { id: string } }).memory.id;
  }
  const preference = await page.request.post("/api/v1/memories", {
    data: {
      kind: "preference",
      content: { subject: "zebra <script>alert(1)</script>", preference: "<img src=x onerror=alert(1)>" },
    },
  });
  expect(preference.status()).toBe(201);
  const edited = await page.request.patch(`/api/v1/memories/${created[API_PAYLOADS[0]!]}`, {
    data: { content: EDITED },
  });
  expect(edited.ok()).toBe(true);

  // Chat: the message is saved as a memory by the chat model (tool chip), then recalled in a new chat.
  await page.getByLabel("Message").fill(CHAT_MESSAGE);
  await page.getByLabel("Message").press("Enter");
  const chip = page.getByTestId("memory-chip");
  await expect(chip).toHaveText(`Saved: ${SAVED_FROM_CHAT}`);
  const threadId = page.url().split("/chat/")[1]!;
  const chatMemoryId = (await chip.getAttribute("href"))!.split("/memories/")[1]!;
  await expect(page.locator('[data-role="user"]')).toHaveText(CHAT_MESSAGE);
  await expect(page.getByTestId("extraction-status")).toBeVisible();
  await expectInert(page, dialogs, "chat after saving");

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByLabel("Message").fill("What do you know about zebra facts?");
  await page.getByLabel("Message").press("Enter");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("Zebra");
  const used = answer.getByTestId("memories-used");
  await used.getByText(/Memories used/).click();
  // The recalled memories: listed under "Memories used" and quoted in the answer, as text.
  for (const text of [...API_PAYLOADS.slice(1), EDITED]) {
    await expect(used.getByRole("link", { name: text, exact: true }), text).toBeVisible();
    await expect(answer.locator("p").first(), text).toContainText(text);
  }
  await page.screenshot({ path: "test-results/screens/content-safety-chat.png", fullPage: true });
  await expectInert(page, dialogs, "chat recall");

  // Reloaded from the database: the stored thread renders the same way, with the sidebar titles.
  await page.goto(`/chat/${threadId}`);
  await expect(page.locator('[data-role="user"]')).toHaveText(CHAT_MESSAGE);
  await expect(page.getByTestId("memory-chip")).toHaveText(`Saved: ${SAVED_FROM_CHAT}`);
  await expectInert(page, dialogs, "stored chat");

  await page.goto("/memories?q=zebra");
  const list = page.getByTestId("memory-list");
  for (const text of [...API_PAYLOADS.slice(1), EDITED, SAVED_FROM_CHAT]) {
    await expect(list.getByText(text, { exact: true }), text).toBeVisible();
  }
  await expectText(page, "zebra <script>alert(1)</script>: <img src=x onerror=alert(1)>", "list, preference");
  await expectInert(page, dialogs, "memory list");

  await page.goto(`/memories/${created[API_PAYLOADS[0]!]}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(EDITED);
  const diff = page.getByTestId("memory-history").getByTestId("version-diff").first();
  await expect(diff.locator("ins")).toContainText(["<iframe"]);
  await expect(diff.locator("del")).toContainText(["<script>window.__pwned=1</script>"]);
  await page.screenshot({ path: "test-results/screens/content-safety-history.png", fullPage: true });
  await expectInert(page, dialogs, "memory page with history and diff");

  await page.goto(`/memories/${chatMemoryId}`);
  await expect(page.getByTestId("memory-source").locator("mark")).toHaveText(CHAT_MESSAGE);
  await expectInert(page, dialogs, "memory page with its source message");

  // The background run reads the message too; its ops show on the runs page.
  await expect
    .poll(
      async () => {
        const body = await (await page.request.get(`/api/v1/threads/${threadId}/extraction`)).json();
        return (body as { runs: { status: string }[] }).runs[0]?.status;
      },
      { timeout: 45_000 },
    )
    .toMatch(/succeeded|failed/);
  await page.goto("/memories/runs");
  await expect(page.getByTestId("run-card").first()).toBeVisible();
  await expectText(page, "zebra secret", "runs page");
  await page.screenshot({ path: "test-results/screens/content-safety-runs.png", fullPage: true });
  await expectInert(page, dialogs, "runs page");
});
