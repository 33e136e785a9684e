-- Consolidation (docs/memory-model.md, "Consolidation"): a memory folded into another is kept, with status `merged`
-- and the memory it went into; the memory it went into lists what it absorbed (whose rows keep their source quotes). Versions
-- carry both, so history, `asOf` and reverting a run read them like any other column.
-- Unqualified columns: Citus runs these checks on each shard, whose table has another name (docs/configuration.md).
ALTER TABLE "memories" DROP CONSTRAINT "memories_status_check";--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_status_check" CHECK (status in ('active', 'deleted', 'merged'));--> statement-breakpoint
ALTER TABLE "memory_versions" DROP CONSTRAINT "memory_versions_status_check";--> statement-breakpoint
ALTER TABLE "memory_versions" ADD CONSTRAINT "memory_versions_status_check" CHECK (status in ('active', 'deleted', 'merged'));--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN IF NOT EXISTS "merged_into" uuid;--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN IF NOT EXISTS "merged_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_versions" ADD COLUMN IF NOT EXISTS "merged_into" uuid;--> statement-breakpoint
ALTER TABLE "memory_versions" ADD COLUMN IF NOT EXISTS "merged_from" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_proposals" DROP CONSTRAINT "memory_proposals_op_check";--> statement-breakpoint
ALTER TABLE "memory_proposals" ADD CONSTRAINT "memory_proposals_op_check" CHECK (op in ('insert', 'update', 'delete', 'instructions', 'merge'));--> statement-breakpoint
CREATE TABLE "consolidation_runs" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"model" text,
	"groups" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ops_proposed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ops_applied" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ops_rejected" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"model_calls" integer DEFAULT 0 NOT NULL,
	"input_tokens" integer,
	"output_tokens" integer,
	"cost_usd" numeric(18, 10),
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"job_id" text,
	"reverted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "consolidation_runs_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "consolidation_runs_status_check" CHECK ("consolidation_runs"."status" in ('queued', 'running', 'succeeded', 'failed', 'skipped')),
	CONSTRAINT "consolidation_runs_trigger_check" CHECK ("consolidation_runs"."trigger" in ('manual', 'after_extraction', 'daily'))
);
--> statement-breakpoint
ALTER TABLE "consolidation_runs" ADD CONSTRAINT "consolidation_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consolidation_runs_user_created_idx" ON "consolidation_runs" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- Per-user data read and written in units of work bound to a user: the same second wall as the other user tables
-- (0010, 0014, 0016, 0022, 0023).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON consolidation_runs TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted consolidation_runs: row-level security is not enforced';
END $$;
--> statement-breakpoint
ALTER TABLE consolidation_runs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY consolidation_runs_owner ON consolidation_runs USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
