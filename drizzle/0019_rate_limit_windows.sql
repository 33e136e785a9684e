CREATE TABLE "rate_limit_windows" (
	"limiter" text NOT NULL,
	"key" text NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_limiter_key_pk" PRIMARY KEY("limiter","key")
);
