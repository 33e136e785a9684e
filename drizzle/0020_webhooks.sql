CREATE TABLE "webhook_deliveries" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"memory_id" uuid,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp (3) with time zone,
	"next_attempt_at" timestamp (3) with time zone,
	"delivered_at" timestamp (3) with time zone,
	CONSTRAINT "webhook_deliveries_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("webhook_deliveries"."status" in ('pending', 'sending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"disabled_at" timestamp (3) with time zone,
	"disabled_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_user_id_id_pk" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_fk" FOREIGN KEY ("user_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("user_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" USING btree ("user_id","endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_user_memory_idx" ON "webhook_deliveries" USING btree ("user_id","memory_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_created_idx" ON "webhook_endpoints" USING btree ("user_id","created_at");--> statement-breakpoint
-- Webhook endpoints and deliveries are per-user data read and written in units of work bound to a user: the same
-- second wall as the other user tables (0010, 0016).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_endpoints, webhook_deliveries TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted the webhook tables: row-level security is not enforced';
END $$;
--> statement-breakpoint
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY webhook_endpoints_owner ON webhook_endpoints USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
--> statement-breakpoint
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY webhook_deliveries_owner ON webhook_deliveries USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
