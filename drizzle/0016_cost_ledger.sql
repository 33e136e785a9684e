CREATE TABLE "model_usage" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"cost_usd" numeric(18, 10),
	"thread_id" text,
	"message_id" text,
	"run_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_usage_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "model_usage_kind_check" CHECK ("model_usage"."kind" in ('chat', 'extraction'))
);
--> statement-breakpoint
ALTER TABLE "extraction_runs" DROP CONSTRAINT "extraction_runs_status_check";--> statement-breakpoint
ALTER TABLE "model_usage" ADD CONSTRAINT "model_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "model_usage_user_created_idx" ON "model_usage" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "model_usage_user_run_idx" ON "model_usage" USING btree ("user_id","run_id");--> statement-breakpoint
ALTER TABLE "extraction_runs" ADD CONSTRAINT "extraction_runs_status_check" CHECK ("extraction_runs"."status" in ('queued', 'running', 'succeeded', 'failed', 'skipped'));--> statement-breakpoint
-- The ledger is per-user data read and written in units of work bound to a user: the same second wall as the other
-- user tables (0010, 0014). The grant is repeated because default privileges cover only tables created by the login
-- that ran 0010.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON model_usage TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted model_usage: row-level security is not enforced';
END $$;
--> statement-breakpoint
ALTER TABLE model_usage ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY model_usage_owner ON model_usage USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
