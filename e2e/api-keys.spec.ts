import { expect, test } from "@playwright/test";

test("the console creates a key shown once, lists it, and revoking it locks the key out", async ({ page }) => {
  await page.goto("/");
  await page.getByTestId("user-menu").click();
  await page.getByRole("menuitem", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/settings\/keys$/);

  await page.getByLabel("Name").fill("notebook agent");
  await page.getByRole("checkbox", { name: "write" }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^ml_[A-Za-z0-9_-]{43}$/);

  const row = page.getByTestId("api-key-row").filter({ hasText: "notebook agent" });
  await expect(row).toContainText(secret.slice(0, 12));
  await expect(row).toContainText("read, write");
  await expect(row).toContainText("Never");
  await page.screenshot({ path: "test-results/screens/api-keys.png", fullPage: true });

  const withKey = { headers: { authorization: `Bearer ${secret}` } };
  expect((await page.request.get("/api/v1/memories", withKey)).status()).toBe(200);

  page.once("dialog", (dialog) => dialog.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("Revoked");
  await page.reload();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  expect((await page.request.get("/api/v1/memories", withKey)).status()).toBe(401);
});

test("the API reference lists the REST operations from the OpenAPI document", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "Memory Ledger API" })).toBeVisible();
  const document = (await (await page.request.get("/api/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      await expect(page.locator(`section#${operation.operationId}`)).toHaveCount(1);
    }
  }
});
