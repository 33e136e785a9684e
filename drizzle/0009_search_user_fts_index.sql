DROP INDEX "memories_fts_idx";--> statement-breakpoint
DROP INDEX "memories_text_trgm_idx";--> statement-breakpoint
CREATE INDEX "memories_user_fts_idx" ON "memories" USING gin ("user_id","fts");