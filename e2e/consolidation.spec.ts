import { expect, test } from "@playwright/test";
import { guestWithKey } from "./api-support";

test("Tidy up now merges a planted duplicate and the health card shows it gone", async ({ page, request }) => {
  const { key } = await guestWithKey(page);
  // Written by an app with a key, as an agent would: a tidy-up may change them without asking (a person's own edit
  // would only be proposed).
  const ids: string[] = [];
  for (const content of ["User loves hiking in the mountains", "The user loves hiking in the mountains."]) {
    const response = await request.post("/api/v1/memories", {
      headers: { authorization: `Bearer ${key}` },
      data: { content },
    });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { memory: { id: string } }).memory.id);
  }

  await page.goto("/memories");
  const card = page.getByTestId("memory-health");
  await expect(card.getByTestId("health-duplicates")).toHaveText("1");
  await expect(card.getByTestId("health-last-run")).toContainText("never tidied yet");

  // A click before hydration does nothing; once one lands the card says the run is under way or done.
  await expect(async () => {
    const button = card.getByRole("button", { name: "Tidy up now" });
    if (await button.isEnabled()) await button.click({ timeout: 2_000 });
    await expect(card.getByTestId("health-last-run")).not.toContainText("never tidied yet", { timeout: 2_000 });
  }).toPass();

  await expect(card.getByTestId("health-last-run")).toContainText("1 change", { timeout: 30_000 });
  await expect(card.getByTestId("health-duplicates")).toHaveText("0");

  const runs = (await (
    await request.get("/api/v1/consolidation-runs", { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { runs: Array<{ status: string; opsApplied: Array<{ op: string }> }> };
  expect(runs.runs).toMatchObject([{ status: "succeeded", opsApplied: [{ op: "merge" }] }]);

  // The memory that stands says it was said twice and lists the other wording.
  await page.goto(`/memories/${ids[0]}`);
  await expect(page.getByTestId("memory-support")).toContainText("said 2 times");
  await expect(page.getByTestId("merged-from")).toContainText("The user loves hiking in the mountains.");
});

test("a merge that keeps what each memory adds waits on the Review page as a new wording, edited and approved", async ({
  page,
  request,
}) => {
  const { key } = await guestWithKey(page);
  const headers = { authorization: `Bearer ${key}` };
  const ids: string[] = [];
  for (const content of [
    "User loves hiking in the mountains and finds it restorative",
    "User loves hiking in the mountains and pursues it whenever they can",
  ]) {
    const response = await request.post("/api/v1/memories", { headers, data: { content } });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { memory: { id: string } }).memory.id);
  }
  expect((await page.request.patch("/api/v1/settings", { data: { review: "all" } })).status()).toBe(200);
  expect((await request.post("/api/v1/consolidation-runs", { headers, data: {} })).status()).toBe(202);

  await expect(async () => {
    await page.goto("/memories/review");
    await expect(page.getByTestId("proposal")).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const proposal = page.getByTestId("proposal");
  await expect(proposal).toContainText("Merge");
  // The standing memory's text beside the wording it would take: both asides, nothing else.
  await expect(proposal).toContainText("finds it restorative");
  expect(
    ((await (await request.get(`/api/v1/memories/${ids[1]}`, { headers })).json()) as { memory: { text: string } })
      .memory.text,
  ).toBe("User loves hiking in the mountains and pursues it whenever they can");

  const edited = "User loves hiking in the mountains, goes whenever they can and finds it restorative";
  await expect(async () => {
    await proposal.getByRole("button", { name: "Edit and approve" }).click({ timeout: 2_000 });
    await expect(proposal.getByLabel("Content")).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await proposal.getByLabel("Content").fill(edited);
  await proposal.getByRole("button", { name: "Approve edited" }).click();
  await expect(page.getByText("Nothing to review")).toBeVisible();

  await page.goto(`/memories/${ids[1]}`);
  await expect(page.getByTestId("memory-support")).toContainText("said 2 times");
  const standing = (await (await request.get(`/api/v1/memories/${ids[1]}`, { headers })).json()) as {
    memory: { text: string; mergedFrom: string[] };
  };
  expect(standing.memory).toMatchObject({ text: edited, mergedFrom: [ids[0]] });
});
