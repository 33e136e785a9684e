import { expect, type Page, test } from "@playwright/test";
import { say } from "./chat-support";

const SCREENS = "test-results/screens";

/** Rates the newest answer down with a comment, once the answer is stored and the buttons are hydrated. */
async function rateLastAnswer(page: Page, comment: string) {
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer.getByRole("button", { name: "Bad answer" })).toBeVisible({ timeout: 30_000 });
  await expect(async () => {
    const down = answer.getByRole("button", { name: "Bad answer" });
    if ((await down.getAttribute("aria-pressed")) !== "true") await down.click({ timeout: 2_000 });
    await answer.getByLabel("Comment on this answer (optional)").fill(comment, { timeout: 2_000 });
    await answer.getByRole("button", { name: "Send feedback" }).click({ timeout: 2_000 });
    await expect(answer.getByTestId("feedback-sent")).toBeVisible({ timeout: 5_000 });
  }).toPass();
}

test("two down-votes become a proposed instruction; approved, the next answer runs with it", async ({ page }) => {
  await page.goto("/");
  await say(page, "Tell me everything about ocean tides.");
  await rateLastAnswer(page, "too long, use bullet points");
  await say(page, "Now tell me everything about solar eclipses.");
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(2, { timeout: 30_000 });
  await rateLastAnswer(page, "too long, use bullet points");
  await page.screenshot({ path: `${SCREENS}/feedback-sent.png` });

  // One proposal grounded in both votes: whether one optimizer pass read them together or a second pass added its
  // vote to the change the first one left pending.
  await expect
    .poll(
      async () => {
        const body = (await (await page.request.get("/api/v1/proposals?status=pending")).json()) as {
          proposals: Array<{ op: string; text?: string; content?: { feedbackIds?: string[] } }>;
        };
        return body.proposals
          .filter((proposal) => proposal.op === "instructions")
          .map((proposal) => ({ text: proposal.text, votes: proposal.content?.feedbackIds?.length }));
      },
      { timeout: 30_000 },
    )
    .toEqual([{ text: "Keep answers short; use bullet points.", votes: 2 }]);

  await page.goto("/memories/review");
  const proposal = page.getByTestId("proposal");
  await expect(proposal).toHaveCount(1);
  await expect(proposal).toContainText("Change your instructions");
  await expect(proposal.getByTestId("version-diff")).toContainText("Keep answers short; use bullet points.");
  await page.screenshot({ path: `${SCREENS}/instructions-proposal.png` });
  await expect(async () => {
    if (await page.getByText("Nothing to review").isVisible()) return;
    await proposal.getByRole("button", { name: "Approve", exact: true }).click({ timeout: 2_000 });
    await expect(page.getByText("Nothing to review")).toBeVisible({ timeout: 5_000 });
  }).toPass();

  await page.goto("/memories/instructions");
  await expect(page.getByTestId("current-instructions")).toHaveValue("Keep answers short; use bullet points.");
  const versions = page.getByTestId("instruction-version");
  await expect(versions).toHaveCount(1);
  await expect(versions.first()).toContainText("by the optimizer");
  await expect(versions.first()).toContainText("from 2 feedback");
  await page.screenshot({ path: `${SCREENS}/instructions-page.png` });

  await page.goto("/");
  await say(page, "What causes rainbows?");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer.getByRole("button", { name: "Bad answer" })).toBeVisible({ timeout: 30_000 });
  await answer
    .getByTestId("memories-used")
    .getByRole("button", { name: /Memories used/ })
    .click();
  await expect(answer.getByTestId("instructions-used")).toContainText("Your instructions, version 1");
});

test("instructions are edited by hand, keep their history with diffs, and revert as a new version", async ({
  page,
}) => {
  await page.goto("/memories/instructions");
  const text = page.getByLabel("Your instructions, one per line");
  await expect(async () => {
    await text.fill("Use metric units.", { timeout: 2_000 });
    await page.getByRole("button", { name: "Save instructions" }).click({ timeout: 2_000 });
    await expect(page.getByText("Saved as version 1.")).toBeVisible({ timeout: 5_000 });
  }).toPass();
  await expect(page.getByTestId("instruction-version")).toHaveCount(1);
  await text.fill("Use metric units.\nAnswer in French.");
  await page.getByRole("button", { name: "Save instructions" }).click();
  await expect(page.getByTestId("instruction-version")).toHaveCount(2);
  await expect(page.getByTestId("instruction-version").first().locator("ins")).toContainText("Answer in French.");
  await expect(page.getByTestId("instruction-version").first()).toContainText("by you");

  const revert = page.getByRole("button", { name: "Revert to version 1" });
  await revert.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("instruction-version")).toHaveCount(3);
  const body = (await (await page.request.get("/api/v1/instructions")).json()) as {
    instructions: { text: string; version: number };
    versions: Array<{ reason: string; changedBy: { type: string } }>;
  };
  expect(body.instructions).toMatchObject({ text: "Use metric units.", version: 3 });
  expect(body.versions[0]).toMatchObject({ reason: "reverted to version 1", changedBy: { type: "user" } });
  await page.screenshot({ path: `${SCREENS}/instructions-history.png` });
});
