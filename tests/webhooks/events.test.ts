import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { extractionRuns } from "@/lib/db/schema";
import { failAbandonedRun, runExtraction } from "@/lib/memory/extraction";
import { type ApprovedMemory, approveProposal, propose, rejectProposal } from "@/lib/memory/review";
import { createWebhook, listDeliveries, type ScheduledDelivery } from "@/lib/memory/webhooks";
import { addExchange } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("webhook events from background extraction", (use) => {
  it("a run's memory writes and its completion are events, the completion with ids and counts only", async () => {
    const userId = await createUser(use());
    const queued: ScheduledDelivery[] = [];
    const ctx = contextFor(use(), userId, {
      scheduleWebhookDeliveries: async (deliveries) => {
        queued.push(...deliveries);
      },
    });
    const { webhook } = await createWebhook(
      ctx,
      { url: "https://hooks.example.com/runs", events: ["memory.created", "extraction.run.completed"] },
      { allowPrivate: false },
    );
    await addExchange(use(), userId, "t1", ["m1", "user", "I live in Oslo"], ["m2", "assistant", "Noted."]);
    const outcome = await runExtraction(
      { ctx, model: new OfflineLanguageModel(), modelId: "offline" },
      { threadId: "t1", jobId: "job-1", finalAttempt: true },
    );
    expect(outcome.status).toBe("succeeded");
    const { deliveries } = await listDeliveries(ctx, webhook.id);
    const byType = Object.fromEntries(deliveries.map((delivery) => [delivery.eventType, delivery.payload]));
    expect(Object.keys(byType).sort()).toEqual(["extraction.run.completed", "memory.created"]);
    expect(byType["memory.created"]).toMatchObject({ type: "memory.created", data: { text: "User lives in Oslo" } });
    expect(byType["extraction.run.completed"]).toMatchObject({
      type: "extraction.run.completed",
      data: {
        runId: outcome.status === "succeeded" ? outcome.runId : "",
        threadId: "t1",
        status: "succeeded",
        applied: 1,
        rejected: 0,
      },
    });
    expect(JSON.stringify(byType["extraction.run.completed"])).not.toMatch(/Oslo/);
    // Both were handed to the queue once the run's transaction committed.
    expect(queued.map((job) => job.deliveryId).sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());

    // A run the queue gave up on (every worker died mid-run) finishes as failed, and says so.
    const [open] = await use()
      .unbound.db.insert(extractionRuns)
      .values({
        userId,
        threadId: "t1",
        namespace: ["users", userId],
        status: "running",
        fromPosition: 2,
        throughPosition: 2,
        jobId: "job-dead",
      })
      .returning({ id: extractionRuns.id });
    expect(await failAbandonedRun(ctx, "job-dead")).toBe(true);
    const completions = (await listDeliveries(ctx, webhook.id)).deliveries.filter(
      (delivery) => delivery.eventType === "extraction.run.completed",
    );
    expect(completions.map((delivery) => delivery.payload.data)).toContainEqual({
      runId: open!.id,
      threadId: "t1",
      status: "failed",
    });
  });
});

describeEachDatabase("webhook events of review", (use) => {
  it("a proposal made, approved or rejected is an event with ids only, never the proposed words", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    const { webhook } = await createWebhook(
      ctx,
      {
        url: "https://hooks.example.com/review",
        events: ["proposal.created", "proposal.approved", "proposal.rejected"],
      },
      { allowPrivate: false },
    );
    const first = await propose(ctx, {
      op: "insert",
      namespace: ["users", userId],
      kind: "memory",
      content: "User keeps bees in Lyon",
      text: "User keeps bees in Lyon",
      reason: "test",
    });
    const second = await propose(ctx, {
      op: "insert",
      namespace: ["users", userId],
      kind: "memory",
      content: "User collects stamps",
      text: "User collects stamps",
      reason: "test",
    });
    const approved = (await approveProposal(ctx, first.id)) as ApprovedMemory;
    await rejectProposal(ctx, second.id, { reason: "not true" });

    const { deliveries } = await listDeliveries(ctx, webhook.id);
    const events = deliveries.map((delivery) => ({ type: delivery.eventType, data: delivery.payload.data }));
    expect(events).toEqual(
      expect.arrayContaining([
        { type: "proposal.created", data: { id: first.id, op: "insert", memoryId: null, status: "pending" } },
        { type: "proposal.created", data: { id: second.id, op: "insert", memoryId: null, status: "pending" } },
        {
          type: "proposal.approved",
          data: { id: first.id, op: "insert", memoryId: approved.memory.id, status: "approved" },
        },
        { type: "proposal.rejected", data: { id: second.id, op: "insert", memoryId: null, status: "rejected" } },
      ]),
    );
    expect(events).toHaveLength(4);
    expect(JSON.stringify(deliveries.map((delivery) => delivery.payload))).not.toMatch(/bees|stamps/);
  });
});
