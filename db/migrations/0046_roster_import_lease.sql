ALTER TABLE "roster_imports" ADD COLUMN "lease" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "roster_imports" ADD COLUMN "interruptions" integer DEFAULT 0 NOT NULL;