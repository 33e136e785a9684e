CREATE TABLE "memories" (
	"user_id" uuid NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"namespace" text[] NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"content" jsonb,
	"text" text,
	"content_hash" text NOT NULL,
	"status" text NOT NULL,
	"version" integer NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_type" text NOT NULL,
	"thread_id" text,
	"message_id" text,
	"quote" text,
	"run_id" text,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"purged_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"fts" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce("text", ''))) STORED,
	CONSTRAINT "memories_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "memories_user_namespace_key_unique" UNIQUE("user_id","namespace","key"),
	CONSTRAINT "memories_status_check" CHECK ("memories"."status" in ('active', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "memory_versions" (
	"user_id" uuid NOT NULL,
	"memory_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"op" text NOT NULL,
	"kind" text NOT NULL,
	"content" jsonb,
	"text" text,
	"content_hash" text NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"reason" text,
	"source_type" text NOT NULL,
	"thread_id" text,
	"message_id" text,
	"quote" text,
	"run_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "memory_versions_user_id_memory_id_version_pk" PRIMARY KEY("user_id","memory_id","version"),
	CONSTRAINT "memory_versions_op_check" CHECK ("memory_versions"."op" in ('create', 'update', 'delete', 'restore', 'purge')),
	CONSTRAINT "memory_versions_status_check" CHECK ("memory_versions"."status" in ('active', 'deleted'))
);
--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_versions" ADD CONSTRAINT "memory_versions_user_id_memory_id_memories_user_id_id_fk" FOREIGN KEY ("user_id","memory_id") REFERENCES "public"."memories"("user_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memories_user_namespace_idx" ON "memories" USING btree ("user_id","namespace");--> statement-breakpoint
CREATE INDEX "memories_user_status_updated_idx" ON "memories" USING btree ("user_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "memories_fts_idx" ON "memories" USING gin ("fts");--> statement-breakpoint
CREATE INDEX "memories_text_trgm_idx" ON "memories" USING gin ("text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "memory_versions_user_thread_idx" ON "memory_versions" USING btree ("user_id","thread_id");