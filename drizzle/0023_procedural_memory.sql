CREATE TABLE "answer_feedback" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"message_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"rating" text NOT NULL,
	"comment" text,
	"instructions_version" integer,
	"optimizer_run_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_feedback_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "answer_feedback_rating_check" CHECK ("answer_feedback"."rating" in ('up', 'down'))
);
--> statement-breakpoint
CREATE TABLE "instruction_versions" (
	"user_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"text" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"reason" text NOT NULL,
	"feedback_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"run_id" uuid,
	"proposal_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instruction_versions_user_id_version_pk" PRIMARY KEY("user_id","version")
);
--> statement-breakpoint
CREATE TABLE "optimizer_runs" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"model" text,
	"feedback_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"from_version" integer,
	"proposed" jsonb,
	"rejected" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"proposal_id" uuid,
	"applied_version" integer,
	"input_tokens" integer,
	"output_tokens" integer,
	"error" text,
	"job_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "optimizer_runs_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "optimizer_runs_status_check" CHECK ("optimizer_runs"."status" in ('running', 'succeeded', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "memory_proposals" DROP CONSTRAINT "memory_proposals_op_check";--> statement-breakpoint
ALTER TABLE "answer_feedback" ADD CONSTRAINT "answer_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_feedback" ADD CONSTRAINT "answer_feedback_user_id_message_id_messages_user_id_id_fk" FOREIGN KEY ("user_id","message_id") REFERENCES "public"."messages"("user_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instruction_versions" ADD CONSTRAINT "instruction_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimizer_runs" ADD CONSTRAINT "optimizer_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_feedback_user_created_idx" ON "answer_feedback" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "optimizer_runs_user_created_idx" ON "optimizer_runs" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "memory_proposals" ADD CONSTRAINT "memory_proposals_op_check" CHECK ("memory_proposals"."op" in ('insert', 'update', 'delete', 'instructions'));--> statement-breakpoint
-- Feedback, instructions and optimizer runs are per-user data read and written in units of work bound to a user: the
-- same second wall as the other user tables (0010, 0014, 0016, 0022), grant repeated for the same reason as in 0022.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON answer_feedback, instruction_versions, optimizer_runs TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted the procedural memory tables: row-level security is not enforced';
END $$;
--> statement-breakpoint
ALTER TABLE answer_feedback ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY answer_feedback_owner ON answer_feedback USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE instruction_versions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY instruction_versions_owner ON instruction_versions USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE optimizer_runs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY optimizer_runs_owner ON optimizer_runs USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
