import { expect, type Page, test } from "@playwright/test";
import { expectNoLongerSignedInAs } from "./api-support";

const PASSWORD = "correct horse battery";

function uniqueEmail(label: string) {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function openUserMenu(page: Page) {
  await page.getByTestId("user-menu").click();
  return page.getByRole("menu");
}

async function currentUserId(page: Page) {
  const response = await page.request.get("/api/v1/me");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { userId: string }).userId;
}

async function register(page: Page, email: string, password = PASSWORD) {
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
}

test("a visitor lands inside the app with a guest session", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" })).toBeVisible();
  await expect(page.getByTestId("user-menu")).toContainText("Guest");
  const menu = await openUserMenu(page);
  await expect(menu.getByTestId("user-identity")).toHaveText("Guest session");
  await page.screenshot({ path: "test-results/screens/guest-home.png", fullPage: true });

  const health = await page.request.get("/api/health");
  // No key configured: vectors come from the bundled local encoder.
  expect(await health.json()).toMatchObject({
    status: "ok",
    database: "pglite",
    vector: true,
    embedding: "local:use-lite",
  });
});

test("a guest registers and keeps the same user id and memories, then signs out and back in", async ({ page }) => {
  await page.goto("/memories");
  await expect(page.getByRole("heading", { name: "Nothing remembered yet" })).toBeVisible();
  const guestId = await currentUserId(page);
  const created = await page.request.post("/api/v1/memories", {
    data: { content: "Guest remembers the blue notebook" },
  });
  expect(created.status()).toBe(201);

  const email = uniqueEmail("upgrade");
  const menu = await openUserMenu(page);
  await menu.getByRole("menuitem", { name: /Create an account/ }).click();
  await expect(page.getByRole("heading", { name: "Keep your memories" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByTestId("user-menu")).toContainText(email);
  expect(await currentUserId(page)).toBe(guestId);
  const kept = await (await page.request.get("/api/v1/memories")).json();
  expect(kept.memories.map((m: { text: string }) => m.text)).toEqual(["Guest remembers the blue notebook"]);

  await (await openUserMenu(page)).getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await expectNoLongerSignedInAs(page, guestId);

  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-menu")).toContainText(email);
  expect(await currentUserId(page)).toBe(guestId);
});

test("a page load renews the session cookie, the router's background reads never do", async ({ page }) => {
  const rewritesSession = async (response: { headersArray(): Promise<Array<{ name: string; value: string }>> }) =>
    (await response.headersArray()).some(
      ({ name, value }) => name.toLowerCase() === "set-cookie" && /authjs\.session-token=/.test(value),
    );
  await page.goto("/memories");
  const load = await page.goto("/memories");
  expect(await rewritesSession(load!)).toBe(true);
  // What the router sends for a prefetch or a navigation's payload: a fetch, which the browser marks as no document.
  const [background] = await Promise.all([
    // Next.js first sends a bare RSC request to its cache-busting `_rsc` URL; the answer from there is the page's.
    page.waitForResponse((response) => new URL(response.url()).searchParams.has("_rsc")),
    page.evaluate(() => fetch("/memories", { headers: { RSC: "1", "Next-Router-Prefetch": "1" } }).then(() => null)),
  ]);
  expect(background.ok()).toBe(true);
  expect(await rewritesSession(background)).toBe(false);
});

test("a wrong password gets one generic message", async ({ page }) => {
  const email = uniqueEmail("wrong");
  await register(page, email);
  await expect(page.getByTestId("user-menu")).toContainText(email);
  await (await openUserMenu(page)).getByRole("menuitem", { name: "Sign out" }).click();

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText("Wrong email or password.");

  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/login/);
  await page.screenshot({ path: "test-results/screens/login-error.png" });
});

test("registering a taken email or a short password is refused clearly", async ({ page, browser }) => {
  const email = uniqueEmail("dup");
  await register(page, email);
  await expect(page.getByTestId("user-menu")).toContainText(email);

  const other = await browser.newPage();
  await register(other, email);
  await expect(other.getByText("An account with this email already exists.")).toBeVisible();
  await register(other, uniqueEmail("short"), "short");
  await expect(other.getByText(/Password must be at least 8 characters/)).toBeVisible();
  await other.close();
});
