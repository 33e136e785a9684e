import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import type { MemoryContext } from "@/lib/memory/core";
import { createMemory, getMemory, listRules, updateMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const actions = await import("@/app/(console)/memories/review/actions");
const { loadReviewQueue } = await import("@/lib/console/review");
const { exportNamespace } = await import("@/lib/console/export");

const callOptions = { toolCallId: "call-1", messages: [], context: {} };

describeEachDatabase("console review, rules and settings", (use) => {
  let me: string;
  let ctx: MemoryContext;
  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.revalidated = [];
    me = await createUser(use());
    ctx = contextFor(use(), me);
    routeHarness.principal = principalFor(me);
  });

  /** One chat turn deleting all of `contents`: the first applies, the rest wait for review. */
  async function heldDeletes(...contents: string[]) {
    const tools = createMemoryTools({ ...ctx, actor: { type: "agent", id: "offline" } });
    const memories = [];
    for (const content of ["User likes the first thing", ...contents]) {
      const memory = await createMemory(ctx, { content });
      memories.push(memory);
      await tools.manage_memory.execute?.({ action: "delete", id: memory.id }, callOptions);
    }
    return memories.slice(1);
  }

  it("shows each pending proposal with the memory as it stands, marking one that changed since", async () => {
    const [opera, jazz] = await heldDeletes("User likes opera", "User likes jazz");
    await updateMemory(ctx, jazz!.id, { content: "User likes free jazz" });
    const { items } = await loadReviewQueue(ctx, { status: "pending" });
    expect(items.map((item) => [item.op, item.text, item.current?.stale])).toEqual([
      ["delete", "User likes jazz", true],
      ["delete", "User likes opera", false],
    ]);
    expect(items[0]?.current).toMatchObject({ id: jazz!.id, text: "User likes free jazz", version: 2 });
    expect(opera).toBeDefined();
  });

  it("shows the dates a held op carries: a held superseding update says approving keeps the old memory", async () => {
    const { updateSettings } = await import("@/lib/memory/review");
    await updateSettings(ctx, { review: "all" });
    const madrid = await createMemory(ctx, { content: "User lives in Madrid" });
    const tools = createMemoryTools({ ...ctx, actor: { type: "agent", id: "offline" } });
    const input = {
      action: "update" as const,
      id: madrid.id,
      content: "User lives in Valencia",
      validFrom: "2026-10-01",
    };
    await tools.manage_memory.execute?.(input, callOptions);
    const { items } = await loadReviewQueue(ctx, { status: "pending" });
    expect(items.map((item) => [item.op, item.text, item.validFrom])).toEqual([
      ["update", "User lives in Valencia", "2026-10-01T00:00:00.000Z"],
    ]);
  });

  it("bulk approval applies each proposal on its own and names the ones it skipped", async () => {
    const [opera, jazz] = await heldDeletes("User likes opera", "User likes jazz");
    await updateMemory(ctx, jazz!.id, { content: "User likes free jazz" });
    const { items } = await loadReviewQueue(ctx, { status: "pending" });
    const result = await actions.decideProposalsAction({ ids: items.map((item) => item.id), decision: "approve" });
    expect(result).toMatchObject({
      ok: true,
      decided: 1,
      skipped: [{ message: expect.stringMatching(/changed since/) }],
    });
    expect((await getMemory(ctx, opera!.id)).status).toBe("deleted");
    expect((await getMemory(ctx, jazz!.id)).status).toBe("active");
    expect(routeHarness.revalidated).toEqual(["/memories"]);
  });

  it("approves a structured proposal as edited with the fields its kind's form gives", async () => {
    const { propose } = await import("@/lib/memory/review");
    const { contentFromValues, fieldValues } = await import("@/lib/console/kind-fields");
    await propose(ctx, {
      op: "insert",
      namespace: ["users", me],
      kind: "preference",
      content: { subject: "coffee", preference: "oat milk" },
      text: "coffee: oat milk",
      reason: "test",
    });
    const [item] = (await loadReviewQueue(ctx, { status: "pending" })).items;
    expect(item).toMatchObject({ kind: "preference", content: { subject: "coffee", preference: "oat milk" } });
    // What the Review page's edit form sends: the kind's fields, edited, parsed as the memory page parses them.
    const values = { ...fieldValues("preference", item!.content), preference: "soy milk" };
    const parsed = contentFromValues("preference", values);
    if (!parsed.ok) throw new Error("the form's values do not parse");
    const result = await actions.decideProposalAction({ id: item!.id, decision: "approve", content: parsed.content });
    expect(result).toMatchObject({ ok: true, memoryId: expect.any(String) });
    const memory = await getMemory(ctx, (result as { memoryId: string }).memoryId);
    expect(memory).toMatchObject({ kind: "preference", content: { subject: "coffee", preference: "soy milk" } });
  });

  it("approves as edited, rejects with a reason, and refuses another user's proposal as not found", async () => {
    const [opera] = await heldDeletes("User likes opera");
    const [item] = (await loadReviewQueue(ctx, { status: "pending" })).items;
    expect(await actions.decideProposalAction({ id: item!.id, decision: "approve", content: "x" })).toMatchObject({
      ok: false,
      error: { code: "unprocessable" },
    });
    routeHarness.principal = principalFor(await createUser(use()));
    expect(await actions.decideProposalAction({ id: item!.id, decision: "reject" })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    routeHarness.principal = principalFor(me);
    expect(await actions.decideProposalAction({ id: item!.id, decision: "reject", reason: "keep it" })).toEqual({
      ok: true,
    });
    expect((await getMemory(ctx, opera!.id)).status).toBe("active");
    const [rejected] = (await loadReviewQueue(ctx, { status: "rejected" })).items;
    expect(rejected).toMatchObject({ id: item!.id, decisionReason: "keep it" });
  });

  it("adds rules with comma-separated terms, refuses an empty one, deletes them; sets the review mode", async () => {
    expect(await actions.addRuleAction({ text: "  ", terms: "" })).toMatchObject({ ok: false });
    expect(await actions.addRuleAction({ text: "No health facts", terms: "health, diagnosis ," })).toEqual({
      ok: true,
    });
    const [rule] = await listRules(ctx);
    expect(rule).toMatchObject({ text: "No health facts", terms: ["health", "diagnosis"] });
    expect(await actions.removeRuleAction(rule!.id)).toEqual({ ok: true });
    expect(await actions.removeRuleAction(rule!.id)).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await actions.setReviewModeAction("sometimes")).toMatchObject({
      ok: false,
      error: { code: "unprocessable" },
    });
    expect(await actions.setReviewModeAction("all")).toEqual({ ok: true });
  });

  it("the export carries the rules and the proposals", async () => {
    await actions.addRuleAction({ text: "No health facts", terms: "health" });
    await heldDeletes("User likes opera");
    let text = "";
    for await (const chunk of exportNamespace(ctx)) text += chunk;
    const exported = JSON.parse(text) as { rules: unknown[]; proposals: unknown[]; memories: unknown[] };
    expect(exported.rules).toEqual([expect.objectContaining({ text: "No health facts", terms: ["health"] })]);
    expect(exported.proposals).toEqual([
      expect.objectContaining({ op: "delete", text: "User likes opera", status: "pending" }),
    ]);
  });
});
