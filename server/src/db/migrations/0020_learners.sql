CREATE TABLE "access_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"note" text NOT NULL,
	"granted_by_id" uuid,
	"granted_by_name" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by_id" uuid,
	"revoked_by_name" text,
	"revoke_note" text,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_paise" integer NOT NULL,
	"access" text NOT NULL,
	"note" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"failure" text,
	"provider_refund_id" text,
	"credit_note_id" uuid,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "admin_refunds_key_unique" UNIQUE("key"),
	CONSTRAINT "admin_refunds_state" CHECK ("admin_refunds"."state" in ('pending', 'processed', 'failed')),
	CONSTRAINT "admin_refunds_access" CHECK ("admin_refunds"."access" in ('now', 'period_end')),
	CONSTRAINT "admin_refunds_amount" CHECK ("admin_refunds"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid,
	"actor_name" text,
	"actor_email" text,
	"action" text NOT NULL,
	"area" text NOT NULL,
	"target_type" text,
	"target_id" uuid,
	"target_label" text,
	"reason" text,
	"summary" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_changes" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"new_email" text NOT NULL,
	"requested_by_id" uuid
);
--> statement-breakpoint
DROP INDEX "billing_documents_payment_id_kind_index";--> statement-breakpoint
ALTER TABLE "billing_documents" ADD COLUMN "admin_refund_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "complimentary_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_grants" ADD CONSTRAINT "access_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_refunds" ADD CONSTRAINT "admin_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_refunds" ADD CONSTRAINT "admin_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_grants_user_id_created_at_index" ON "access_grants" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "access_grants_in_force" ON "access_grants" USING btree ("ends_at") WHERE "access_grants"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "admin_refunds_payment_id_created_at_index" ON "admin_refunds" USING btree ("payment_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_refunds_pending" ON "admin_refunds" USING btree ("created_at") WHERE "admin_refunds"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "audit_log_action_id_index" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_log_area_id_index" ON "audit_log" USING btree ("area","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_id_id_index" ON "audit_log" USING btree ("actor_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_id_id_index" ON "audit_log" USING btree ("target_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_index" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "email_changes_user_id_index" ON "email_changes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_payment_kind" ON "billing_documents" USING btree ("payment_id","kind") WHERE "billing_documents"."admin_refund_id" is null;--> statement-breakpoint
CREATE INDEX "users_signed_up" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_last_active" ON "users" USING btree ("last_active_at" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "users_complimentary" ON "users" USING btree ("complimentary_until") WHERE "users"."complimentary_until" is not null;--> statement-breakpoint
CREATE INDEX "users_trial" ON "users" USING btree ("trial_ends_at") WHERE "users"."trial_ends_at" is not null;--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_adminRefundId_unique" UNIQUE("admin_refund_id");--> statement-breakpoint
-- The learners list searches any part of a name or an email, case-insensitively: trigram indexes
-- answer `ILIKE '%…%'` without reading every account. pg_trgm is a trusted extension (PostgreSQL 13+),
-- and PGlite loads it when it opens the database (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "users_name_trigrams" ON "users" USING gin (lower("full_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "users_email_trigrams" ON "users" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
-- The audit trail is appended to, never changed.
CREATE FUNCTION lms_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION lms_audit_log_append_only();
--> statement-breakpoint
-- The last request seen is written every few minutes per active account; nothing any instance keeps
-- a copy of depends on it, so writing it alone tells no instance to drop the account's sessions.
DROP TRIGGER users_changed ON users;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE ON users FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_active_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_active_at'))
  EXECUTE FUNCTION lms_user_changed();
--> statement-breakpoint
CREATE TRIGGER users_deleted AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION lms_user_changed();
