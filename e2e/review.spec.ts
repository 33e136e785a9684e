import { expect, type Page, test } from "@playwright/test";
import { say } from "./chat-support";

const SCREENS = "test-results/screens";

async function createMemory(page: Page, content: string) {
  const response = await page.request.post("/api/v1/memories", { data: { content } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { memory: { id: string } }).memory;
}

test("a rule written in the console stops the chat from saving what it covers, and the answer names it", async ({
  page,
}) => {
  await page.goto("/memories/rules");
  // Filled and sent until the form is hydrated: a click before that does nothing.
  await expect(async () => {
    await page.getByLabel("Rule", { exact: true }).fill("Never remember anything about my health");
    await page.getByLabel(/Words it covers/).fill("health, diagnosis");
    await page.getByRole("button", { name: "Add rule" }).click({ timeout: 2_000 });
    await expect(page.getByTestId("rule")).toHaveCount(1, { timeout: 5_000 });
  }).toPass();
  await expect(page.getByTestId("rule")).toContainText("Words: health, diagnosis");

  await page.goto("/");
  await say(page, "Remember that my health insurance is with Acme.");
  await expect(
    page.getByText(/breaks the user.s rule "Never remember anything about my health"/).first(),
  ).toBeVisible();
  const { memories } = (await (await page.request.get("/api/v1/memories?status=all")).json()) as {
    memories: Array<{ text: string }>;
  };
  expect(memories.filter((memory) => /health/i.test(memory.text))).toEqual([]);
  await page.screenshot({ path: `${SCREENS}/rules-chat.png` });
});

test("with review set to everything, the manager's change waits on the Review page until it is approved", async ({
  page,
}) => {
  await page.goto("/settings");
  await expect(async () => {
    await page.getByLabel(/Review everything/).check();
    await page.getByRole("button", { name: "Save" }).click({ timeout: 2_000 });
    await expect(page.getByText("Saved.")).toBeVisible({ timeout: 5_000 });
  }).toPass();
  expect(await (await page.request.get("/api/v1/settings")).json()).toEqual({ review: "all" });

  // Two places to live: once the chat states one, the manager retires the other, and review holds that back.
  await createMemory(page, "User lives in Lisbon");
  const madrid = await createMemory(page, "User lives in Madrid");
  await page.goto("/");
  await say(page, "I live in Lisbon.");
  await expect(page.getByTestId("pending-review")).toContainText("1 change awaits your review", { timeout: 30_000 });

  await page.getByTestId("pending-review").getByRole("link").click();
  await expect(page).toHaveURL(/\/memories\/review/);
  await expect(
    page.getByRole("navigation", { name: "Memory console" }).getByRole("link", { name: /Review/ }),
  ).toContainText("1");
  const proposal = page.getByTestId("proposal");
  await expect(proposal).toHaveCount(1);
  await expect(proposal).toContainText("Forget");
  await expect(proposal).toContainText("User lives in Madrid");
  await expect(proposal).toContainText("“I live in Lisbon");
  await page.screenshot({ path: `${SCREENS}/review-queue.png` });

  // Still live until approved.
  const before = (await (await page.request.get(`/api/v1/memories/${madrid.id}`)).json()) as {
    memory: { status: string };
  };
  expect(before.memory.status).toBe("active");

  await expect(async () => {
    if (await page.getByText("Nothing to review").isVisible()) return;
    await proposal.getByRole("button", { name: "Approve", exact: true }).click({ timeout: 2_000 });
    await expect(page.getByText("Nothing to review")).toBeVisible({ timeout: 5_000 });
  }).toPass();
  const after = (await (await page.request.get(`/api/v1/memories/${madrid.id}`)).json()) as {
    memory: { status: string; source: { type: string; quote?: string } };
  };
  expect(after.memory).toMatchObject({ status: "deleted" });
  const { proposals } = (await (await page.request.get("/api/v1/proposals?status=approved")).json()) as {
    proposals: Array<{ op: string; memoryId: string }>;
  };
  expect(proposals).toEqual([expect.objectContaining({ op: "delete", memoryId: madrid.id })]);
});

test("a proposal is rejected from the keyboard, with a reason", async ({ page }) => {
  await page.goto("/");
  expect((await page.request.patch("/api/v1/settings", { data: { review: "all" } })).status()).toBe(200);
  await createMemory(page, "User lives in Porto");
  await createMemory(page, "User lives in Oslo");
  await say(page, "I live in Porto.");
  await expect(page.getByTestId("pending-review")).toBeVisible({ timeout: 30_000 });

  await page.goto("/memories/review");
  const proposal = page.getByTestId("proposal");
  await expect(proposal).toHaveCount(1);
  await expect(async () => {
    await proposal.getByRole("button", { name: "Reject" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Reason (optional)")).toBeFocused({ timeout: 1_000 });
  }).toPass();
  await page.keyboard.type("I live in both");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Nothing to review")).toBeVisible();
  const { proposals } = (await (await page.request.get("/api/v1/proposals?status=rejected")).json()) as {
    proposals: Array<{ decisionReason?: string }>;
  };
  expect(proposals).toEqual([expect.objectContaining({ decisionReason: "I live in both" })]);
});
