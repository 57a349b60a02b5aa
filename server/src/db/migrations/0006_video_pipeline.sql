ALTER TABLE "lectures" ADD COLUMN "video_state" text DEFAULT 'waiting' NOT NULL;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "processing_percent" integer;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "processing_error" text;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "processing_run" uuid;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "processing_heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "video_width" integer;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "video_height" integer;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "poster_key" text;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "hls_key" text;--> statement-breakpoint
CREATE INDEX "lectures_poster_key_index" ON "lectures" USING btree ("poster_key");--> statement-breakpoint
CREATE INDEX "lectures_hls_key_index" ON "lectures" USING btree ("hls_key");--> statement-breakpoint
CREATE INDEX "lectures_video_state_index" ON "lectures" USING btree ("video_state") WHERE "lectures"."video_state" in ('waiting', 'processing');--> statement-breakpoint
ALTER TABLE "lectures" ADD CONSTRAINT "lectures_video_state" CHECK ("lectures"."video_state" in ('waiting', 'processing', 'ready', 'failed'));