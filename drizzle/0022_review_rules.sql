CREATE TABLE "memory_proposals" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"op" text NOT NULL,
	"memory_id" uuid,
	"expected_version" integer,
	"namespace" text[] NOT NULL,
	"kind" text,
	"content" jsonb,
	"text" text,
	"content_hash" text,
	"reason" text,
	"source_type" text NOT NULL,
	"thread_id" text,
	"message_id" text,
	"quote" text,
	"run_id" text,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"status" text NOT NULL,
	"decision_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "memory_proposals_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "memory_proposals_op_check" CHECK ("memory_proposals"."op" in ('insert', 'update', 'delete')),
	CONSTRAINT "memory_proposals_status_check" CHECK ("memory_proposals"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "memory_rules" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"text" text NOT NULL,
	"terms" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_rules_user_id_id_pk" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"review" text DEFAULT 'deletes' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_settings_review_check" CHECK ("user_settings"."review" in ('off', 'deletes', 'all'))
);
--> statement-breakpoint
ALTER TABLE "memory_proposals" ADD CONSTRAINT "memory_proposals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_rules" ADD CONSTRAINT "memory_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_proposals_user_status_created_idx" ON "memory_proposals" USING btree ("user_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "memory_proposals_user_thread_idx" ON "memory_proposals" USING btree ("user_id","thread_id");--> statement-breakpoint
CREATE INDEX "memory_rules_user_created_idx" ON "memory_rules" USING btree ("user_id","created_at");--> statement-breakpoint
-- Proposals, rules and settings are per-user data read and written in units of work bound to a user: the same second
-- wall as the other user tables (0010, 0014, 0016). The grant is repeated because default privileges cover only
-- tables created by the login that ran 0010.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON memory_proposals, memory_rules, user_settings TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted the review tables: row-level security is not enforced';
END $$;
--> statement-breakpoint
ALTER TABLE memory_proposals ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY memory_proposals_owner ON memory_proposals USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE memory_rules ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY memory_rules_owner ON memory_rules USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE user_settings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY user_settings_owner ON user_settings USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
