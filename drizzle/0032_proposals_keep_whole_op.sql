-- A proposal carries everything the op it holds carried (docs/memory-model.md, "The gate"): the dates an insert or a
-- superseding update gave the fact, so approving it does exactly what applying the op would have done.
ALTER TABLE "memory_proposals" ADD COLUMN IF NOT EXISTS "valid_from" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memory_proposals" ADD COLUMN IF NOT EXISTS "valid_to" timestamp (3) with time zone;--> statement-breakpoint
-- When the memory writes of the chat turn this answer ended were undone (POST /api/v1/messages/:id/revert): a turn is
-- undone once.
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "memory_reverted_at" timestamp (3) with time zone;
