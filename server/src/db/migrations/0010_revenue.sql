ALTER TABLE "users" ADD COLUMN "first_paid_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "billing_documents_issued_at_index" ON "billing_documents" USING btree ("issued_at");--> statement-breakpoint
CREATE INDEX "payments_user_id_paid_at_index" ON "payments" USING btree ("user_id","paid_at");--> statement-breakpoint
CREATE INDEX "payments_refunded_at_index" ON "payments" USING btree ("refunded_at");--> statement-breakpoint
CREATE INDEX "subscriptions_renewing" ON "subscriptions" USING btree ("current_end","provider_plan_id") WHERE "subscriptions"."status" in ('active', 'pending') and "subscriptions"."cancelled_at" is null;--> statement-breakpoint
CREATE INDEX "users_first_paid_at_index" ON "users" USING btree ("first_paid_at");--> statement-breakpoint
-- Subscribers before this migration: their first payment, as recordPayment keeps it from now on.
UPDATE "users" SET "first_paid_at" = "first"."paid_at"
FROM (SELECT "user_id", min("paid_at") AS "paid_at" FROM "payments" GROUP BY "user_id") AS "first"
WHERE "first"."user_id" = "users"."id";
