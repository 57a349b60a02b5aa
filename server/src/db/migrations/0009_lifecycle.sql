CREATE TABLE "cancellations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"user_id" uuid NOT NULL,
	"reason" text,
	"note" text,
	"refunded" boolean NOT NULL,
	"access_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cancellations_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "lifecycle_mails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"data" jsonb NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lifecycle_mails_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "cancellations" ADD CONSTRAINT "cancellations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lifecycle_mails" ADD CONSTRAINT "lifecycle_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cancellations_created_at_index" ON "cancellations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "cancellations_user_id_index" ON "cancellations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lifecycle_mails_unsent" ON "lifecycle_mails" USING btree ("created_at") WHERE "lifecycle_mails"."sent_at" is null;