-- A user's unfinished deliveries, counted whenever new ones are recorded: each new delivery's place in its user's
-- backlog becomes its queue priority, so one user's thousandth delivery waits behind another user's first.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_user_unfinished_idx" ON "webhook_deliveries" ("user_id") WHERE "status" IN ('pending', 'sending');
