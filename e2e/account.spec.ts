import { expect, type Page, test } from "@playwright/test";
import { expectNoLongerSignedInAs } from "./api-support";

const PASSWORD = "correct horse battery";

function uniqueEmail(label: string) {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function register(page: Page, email: string) {
  await page.goto("/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("user-menu")).toContainText(email);
}

async function signIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("sign out everywhere ends this browser's session and another one's", async ({ page, browser }) => {
  const email = uniqueEmail("everywhere");
  await register(page, email);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, email);
  await expect(other.getByTestId("user-menu")).toContainText(email);
  expect((await other.request.get("/api/v1/me")).status()).toBe(200);

  const account = (await (await page.request.get("/api/v1/me")).json()) as { userId: string };
  await page.goto("/settings");
  await page.getByTestId("sign-out-everywhere").click();
  await expect(page).toHaveURL(/\/login/);
  await expectNoLongerSignedInAs(page, account.userId);
  expect((await other.request.get("/api/v1/me")).status()).toBe(401);
  // Its next page finds no session: the visitor is a new guest, not the account.
  await other.reload();
  await expect(other.getByTestId("user-menu")).toContainText("Guest");

  // The password still works: a new sign-in starts a session of the new generation.
  await signIn(page, email);
  await expect(page.getByTestId("user-menu")).toContainText(email);
  await elsewhere.close();
});

test("delete my account erases it: its cookie and key answer 401 and its password no longer signs in", async ({
  page,
}) => {
  const email = uniqueEmail("leaving");
  await register(page, email);
  const account = (await (await page.request.get("/api/v1/me")).json()) as { userId: string };
  expect((await page.request.post("/api/v1/memories", { data: { content: "Keeps bees on the roof" } })).status()).toBe(
    201,
  );
  const issued = await page.request.post("/api/v1/keys", { data: { name: "leaving", scopes: ["read"] } });
  expect(issued.status()).toBe(201);
  const { key } = (await issued.json()) as { key: string };

  await page.goto("/settings");
  await page.getByTestId("delete-account").click();
  const dialog = page.getByRole("dialog");
  const confirm = dialog.getByRole("button", { name: "Delete my account" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill("delete my account");
  await page.screenshot({ path: "test-results/screens/delete-account.png", fullPage: true });
  await confirm.click();
  await expect(page).toHaveURL(/\/login/);

  await expectNoLongerSignedInAs(page, account.userId);
  const withKey = await page.request.get("/api/v1/memories", { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(401);
  await signIn(page, email);
  await expect(page.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText("Wrong email or password.");
});
