ALTER TABLE "sandbox_refunds" ADD COLUMN "notes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_refunds" ADD COLUMN "receipt" text;