ALTER TABLE "sandbox_subscriptions" ADD COLUMN "start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "cancel_at_cycle_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "subscription_cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "courses_thumbnail_key_index" ON "courses" USING btree ("thumbnail_key");--> statement-breakpoint
CREATE INDEX "lectures_video_key_index" ON "lectures" USING btree ("video_key");--> statement-breakpoint
-- Before the index: of a user's unpaid subscriptions only the newest stays open (older code could leave several).
UPDATE "subscriptions" SET "status" = 'expired', "updated_at" = now()
WHERE "status" = 'created' AND "id" NOT IN (
  SELECT DISTINCT ON ("user_id") "id" FROM "subscriptions" WHERE "status" = 'created' ORDER BY "user_id", "created_at" DESC, "id" DESC
);--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_unpaid_per_user" ON "subscriptions" USING btree ("user_id") WHERE "subscriptions"."status" = 'created';--> statement-breakpoint
CREATE INDEX "users_avatar_key_index" ON "users" USING btree ("avatar_key");