ALTER TABLE "extraction_runs" ADD COLUMN "reverted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "pinned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "valid_from" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "valid_to" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memory_versions" ADD COLUMN "pinned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_versions" ADD COLUMN "valid_from" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memory_versions" ADD COLUMN "valid_to" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_validity_check" CHECK ("memories"."valid_to" is null or "memories"."valid_from" is null or "memories"."valid_to" >= "memories"."valid_from");