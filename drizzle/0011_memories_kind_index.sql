CREATE INDEX "memories_user_kind_updated_idx" ON "memories" USING btree ("user_id","kind","status","updated_at","id");--> statement-breakpoint
-- Every query also tests the namespace root (`namespace[1:2]`), which user_id already implies. Without this the
-- planner multiplies the two selectivities, expects a handful of rows, and sorts a seq scan instead of walking an
-- index in order.
CREATE STATISTICS IF NOT EXISTS memories_owner_root (dependencies) ON user_id, (namespace[1:2]) FROM memories;
