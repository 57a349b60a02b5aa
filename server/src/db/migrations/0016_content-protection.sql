CREATE TABLE "playbacks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"lecture_id" uuid,
	"address_block" text NOT NULL,
	"device" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_beat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	CONSTRAINT "playbacks_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "stream_refusals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stream_refusals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"address_block" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "address_block" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "playbacks" ADD CONSTRAINT "playbacks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbacks" ADD CONSTRAINT "playbacks_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stream_refusals" ADD CONSTRAINT "stream_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "playbacks_user_id_ends_at_index" ON "playbacks" USING btree ("user_id","ends_at");--> statement-breakpoint
CREATE INDEX "playbacks_session_id_index" ON "playbacks" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "playbacks_started_at_index" ON "playbacks" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "stream_refusals_user_id_at_index" ON "stream_refusals" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "stream_refusals_at_index" ON "stream_refusals" USING btree ("at");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_id_unique" UNIQUE("id");--> statement-breakpoint
-- A session's last sight (its address block and time) is written every few minutes: no instance
-- keeps a copy of those, so only a real change (its end, a new expiry) is announced.
DROP TRIGGER sessions_ended ON sessions;
--> statement-breakpoint
CREATE TRIGGER sessions_ended AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION lms_session_ended();
--> statement-breakpoint
CREATE TRIGGER sessions_changed AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.token_hash IS DISTINCT FROM NEW.token_hash)
  EXECUTE FUNCTION lms_session_ended();
--> statement-breakpoint
-- A stopped lease: every instance drops what it knows of the session's leases (features/protection).
CREATE FUNCTION lms_playback_stopped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lms_changes', 'playback:' || OLD.session_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER playbacks_stopped AFTER UPDATE ON playbacks FOR EACH ROW
  WHEN (OLD.stopped_at IS NULL AND NEW.stopped_at IS NOT NULL)
  EXECUTE FUNCTION lms_playback_stopped();
