CREATE TABLE "memory_access" (
	"user_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"memory_id" uuid NOT NULL,
	"thread_id" text NOT NULL,
	"via" text NOT NULL,
	"score" real NOT NULL,
	"rank" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memory_access_user_id_message_id_memory_id_via_pk" PRIMARY KEY("user_id","message_id","memory_id","via")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"user_id" uuid NOT NULL,
	"id" text NOT NULL,
	"thread_id" text NOT NULL,
	"position" integer NOT NULL,
	"role" text NOT NULL,
	"parts" jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_user_id_id_pk" PRIMARY KEY("user_id","id"),
	CONSTRAINT "messages_thread_position_unique" UNIQUE("user_id","thread_id","position")
);
--> statement-breakpoint
CREATE TABLE "threads" (
	"user_id" uuid NOT NULL,
	"id" text NOT NULL,
	"title" text,
	"summary" text,
	"summarized_through" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "threads_user_id_id_pk" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_thread_id_threads_user_id_id_fk" FOREIGN KEY ("user_id","thread_id") REFERENCES "public"."threads"("user_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "threads" ADD CONSTRAINT "threads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_access_user_memory_idx" ON "memory_access" USING btree ("user_id","memory_id","created_at");--> statement-breakpoint
CREATE INDEX "threads_user_updated_idx" ON "threads" USING btree ("user_id","updated_at","id");