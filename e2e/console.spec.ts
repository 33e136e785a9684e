import { readFile } from "node:fs/promises";
import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { say } from "./chat-support";

const SCREENS = "test-results/screens";

async function currentUserId(page: Page) {
  const response = await page.request.get("/api/v1/me");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { userId: string }).userId;
}

async function createMemory(page: Page, body: Record<string, unknown>) {
  const response = await page.request.post("/api/v1/memories", { data: body });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { memory: { id: string; text: string } }).memory;
}

async function memoryTexts(page: Page) {
  const response = await page.request.get("/api/v1/memories?status=all&limit=200");
  const { memories } = (await response.json()) as { memories: { text: string; status: string }[] };
  return memories.map((memory) => `${memory.status}: ${memory.text}`).sort();
}

/** Clicks until the click takes effect: a click that lands before hydration does nothing. */
async function clickUntil(page: Page, button: string, appears: Locator) {
  await expect(async () => {
    await page.getByRole("button", { name: button, exact: true }).click({ timeout: 2_000 });
    await expect(appears).toBeVisible({ timeout: 1_000 });
  }).toPass();
}

async function openEditor(page: Page) {
  await clickUntil(page, "Edit", page.getByRole("textbox", { name: "Content" }));
}

async function confirmTyped(page: Page, trigger: string, word: string) {
  const dialog = page.getByRole("dialog");
  await clickUntil(page, trigger, dialog);
  await dialog.getByLabel(/Type .* to confirm/).fill(word);
  await dialog.getByRole("button", { name: new RegExp(`^${word}$`, "i") }).click();
  await expect(dialog).toBeHidden();
}

async function newGuest(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto("/memories");
  return page;
}

test("a memory saved in chat: source, edit with history and diff, delete, restore, purge", async ({ page }) => {
  await page.goto("/");
  await say(page, "Remember that I prefer dark mode");
  const chip = page.getByTestId("memory-chip");
  await expect(chip).toHaveText("Saved: User prefers dark mode");
  const threadId = page.url().split("/chat/")[1] as string;
  const memoryId = (await chip.getAttribute("href"))?.split("/memories/")[1] as string;

  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  await say(page, "What are my display preferences?");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("dark mode");

  await page.goto("/memories");
  const row = page.getByTestId("memory-row").filter({ hasText: "User prefers dark mode" });
  await expect(row).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/console-list.png`, fullPage: true });
  await row.getByRole("link", { name: "User prefers dark mode" }).click();
  await expect(page).toHaveURL(new RegExp(`/memories/${memoryId}$`));

  const source = page.getByTestId("memory-source");
  await expect(source.locator("mark")).toHaveText("Remember that I prefer dark mode");
  const sourceLink = source.getByRole("link", { name: "Open the message in its chat" });
  await expect(sourceLink).toHaveAttribute("href", new RegExp(`^/chat/${threadId}#message-.+`));
  await expect(page.getByTestId("memory-used-in")).toContainText("recalled before answering");
  await page.screenshot({ path: `${SCREENS}/console-detail.png`, fullPage: true });

  await openEditor(page);
  await page.getByRole("textbox", { name: "Content" }).fill("User prefers light mode");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("User prefers light mode");
  const history = page.getByTestId("memory-history");
  await expect(history.getByTestId("history-entry")).toHaveCount(2);
  const diff = history.getByTestId("version-diff").first();
  await expect(diff.locator("del")).toContainText("dark");
  await expect(diff.locator("ins")).toContainText("light");
  await page.screenshot({ path: `${SCREENS}/console-history-diff.png`, fullPage: true });

  await confirmTyped(page, "Delete", "delete");
  await expect(page.getByText("Deleted", { exact: true }).first()).toBeVisible();
  await page.goto("/memories");
  await expect(page.getByText("User prefers light mode")).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByLabel("Message")).toBeEditable();
  await say(page, "What are my display preferences?");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText(/\w/);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(page.getByTestId("memories-used")).toHaveCount(0);
  await expect(answer).not.toContainText("light mode");
  await expect(answer).not.toContainText("dark mode");

  await page.goto(`/memories/${memoryId}`);
  await confirmTyped(page, "Restore", "restore");
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await page.goto("/memories");
  await expect(page.getByText("User prefers light mode")).toBeVisible();

  await page.goto(`/memories/${memoryId}`);
  await confirmTyped(page, "Purge", "purge");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Purged memory");
  const purgedHistory = page.getByTestId("memory-history");
  await expect(purgedHistory.getByTestId("history-entry")).toHaveCount(5);
  await expect(purgedHistory).not.toContainText("light mode");
  await expect(purgedHistory).not.toContainText("dark mode");
  await expect(page.getByTestId("memory-source")).not.toContainText("dark mode");
  await page.screenshot({ path: `${SCREENS}/console-purged.png`, fullPage: true });
});

test("two tabs editing the same memory: the later save gets a conflict view with both versions", async ({
  context,
}) => {
  const first = await newGuest(context);
  const memory = await createMemory(first, { content: "Favourite colour is blue" });
  const second = await context.newPage();
  for (const tab of [first, second]) {
    await tab.goto(`/memories/${memory.id}`);
    await openEditor(tab);
  }
  await first.getByRole("textbox", { name: "Content" }).fill("Favourite colour is green");
  await first.getByRole("button", { name: "Save" }).click();
  await expect(first.getByRole("heading", { level: 1 })).toHaveText("Favourite colour is green");

  await second.getByRole("textbox", { name: "Content" }).fill("Favourite colour is red");
  await second.getByRole("button", { name: "Save" }).click();
  const conflict = second.getByTestId("conflict-view");
  await expect(conflict.getByTestId("conflict-theirs")).toContainText("Favourite colour is green");
  await expect(conflict.getByTestId("conflict-yours")).toContainText("Favourite colour is red");
  await second.screenshot({ path: `${SCREENS}/console-conflict.png`, fullPage: true });

  await conflict.getByRole("button", { name: "Save mine over theirs" }).click();
  await expect(second.getByRole("heading", { level: 1 })).toHaveText("Favourite colour is red");
  await expect(second.getByTestId("history-entry")).toHaveCount(3);
});

test("export, then import into a fresh guest after a dry run, gives the same memories", async ({
  page,
  browser,
}, testInfo) => {
  await page.goto("/memories");
  await createMemory(page, { content: "Works on the billing service" });
  await createMemory(page, { kind: "preference", content: { subject: "editor", preference: "Neovim" } });
  const forgotten = await createMemory(page, { content: "Lives in Lisbon" });
  expect((await page.request.delete(`/api/v1/memories/${forgotten.id}`)).ok()).toBe(true);

  await page.goto("/memories/transfer");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download export" }).click();
  const file = testInfo.outputPath("export.json");
  await (await downloading).saveAs(file);
  const exported = JSON.parse(await readFile(file, "utf8")) as { memories: { history: unknown[] }[] };
  expect(exported.memories).toHaveLength(3);
  expect(exported.memories.every((memory) => memory.history.length > 0)).toBe(true);

  const fresh = await browser.newContext();
  const other = await newGuest(fresh);
  await other.goto("/memories/transfer");
  await other.getByLabel("Export file").setInputFiles(file);
  await other.getByRole("button", { name: "Check file" }).click();
  const summary = other.getByTestId("import-summary");
  await expect(summary).toContainText("3 will be created");
  await expect(summary).toContainText("Nothing has been written yet");
  expect(await memoryTexts(other)).toEqual([]);
  await other.screenshot({ path: `${SCREENS}/console-import-dry-run.png`, fullPage: true });

  await summary.getByRole("button", { name: "Import 3 memories" }).click();
  await expect(other.getByTestId("import-done")).toHaveText("Imported 3 memories.");
  expect(await memoryTexts(other)).toEqual(await memoryTexts(page));
  await fresh.close();
});

/** Signs in as the admin e2e/seed-admin.ts registered. */
async function signInAsAdmin(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-menu")).toContainText("admin@example.com");
}

test("an admin browses a user's memories read-only, the user sees it in the access log, others get 404", async ({
  browser,
}) => {
  const owner = await browser.newContext();
  const ownerPage = await newGuest(owner);
  const ownerId = await currentUserId(ownerPage);
  const memory = await createMemory(ownerPage, { content: "Allergic to peanuts" });
  expect((await ownerPage.goto("/memories/admin"))?.status()).toBe(404);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  // The admin account and its flag come from e2e/seed-admin.ts, run before the server starts.
  await signInAsAdmin(adminPage);
  await adminPage.goto("/memories/admin");
  await adminPage.getByLabel(/Search users/).fill(ownerId);
  await adminPage.getByRole("button", { name: "Search" }).click();
  await adminPage.getByRole("link", { name: `View memories of ${ownerId}` }).click();
  await expect(adminPage.getByTestId("admin-banner")).toBeVisible();
  await adminPage.getByRole("link", { name: "Allergic to peanuts" }).click();
  await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Allergic to peanuts");
  await expect(adminPage.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(adminPage.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await adminPage.screenshot({ path: `${SCREENS}/console-admin-view.png`, fullPage: true });

  await ownerPage.goto("/memories/access-log");
  const entries = ownerPage.getByTestId("access-entry");
  await expect(entries.filter({ hasText: "viewed a memory" })).toHaveCount(1);
  await expect(entries.filter({ hasText: "viewed your memory list" }).first()).toContainText("Admin access");
  await ownerPage.screenshot({ path: `${SCREENS}/console-access-log.png`, fullPage: true });

  const stranger = await browser.newContext();
  const strangerPage = await newGuest(stranger);
  expect((await strangerPage.goto(`/memories/${memory.id}`))?.status()).toBe(404);
  expect((await strangerPage.goto(`/memories?as=${ownerId}`))?.status()).toBe(404);
  await Promise.all([owner.close(), admin.close(), stranger.close()]);
});

test("an admin's System page shows queues, backlog, failures and problems; anyone else gets 404", async ({
  browser,
}) => {
  const guest = await browser.newContext();
  const guestPage = await newGuest(guest);
  expect((await guestPage.goto("/memories/system"))?.status()).toBe(404);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signInAsAdmin(adminPage);
  await adminPage.goto("/memories");
  await adminPage.getByRole("link", { name: "System", exact: true }).click();
  await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("System");
  for (const section of ["Queues", "Embedding backlog", "Failed runs, last 24 hours", "Recent problems"]) {
    await expect(adminPage.getByRole("region", { name: section })).toBeVisible();
  }
  await expect(adminPage.getByTestId("system-backlog")).toContainText(/for a vector|No embedding model/);
  await adminPage.screenshot({ path: `${SCREENS}/console-system.png`, fullPage: true });
  await Promise.all([guest.close(), admin.close()]);
});

test("the runs page and the list work at phone width and in dark mode", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/memories/runs");
  await expect(page.getByRole("heading", { name: "Extraction runs", exact: true })).toBeVisible();
  await createMemory(page, { content: "Prefers tea over coffee" });
  await page.goto("/memories");
  await expect(async () => {
    await page.getByRole("button", { name: "Switch to dark mode" }).click({ timeout: 2_000 });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/, { timeout: 1_000 });
  }).toPass();
  await expect(page.getByText("Prefers tea over coffee")).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/console-list-phone-dark.png`, fullPage: true });
});
