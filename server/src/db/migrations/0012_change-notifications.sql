-- Every instance keeps copies of some rows (sessions and their users, the catalogue) and must
-- drop them when another instance, a job or the admin command changes them (DESIGN §9). The
-- database tells every listener on channel lms_changes, after the change commits (a rolled-back
-- change says nothing), whatever made it: server/src/changes.ts.
CREATE FUNCTION lms_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lms_changes', 'user:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION lms_user_changed();
--> statement-breakpoint
CREATE FUNCTION lms_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lms_changes', 'session:' || OLD.token_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_ended AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION lms_session_ended();
--> statement-breakpoint
-- One message per transaction however many rows it touched: PostgreSQL folds identical payloads.
CREATE FUNCTION lms_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lms_changes', 'catalogue');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER courses_changed AFTER INSERT OR UPDATE OR DELETE ON courses FOR EACH STATEMENT EXECUTE FUNCTION lms_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER lectures_added_or_removed AFTER INSERT OR DELETE ON lectures FOR EACH STATEMENT EXECUTE FUNCTION lms_catalogue_changed();
--> statement-breakpoint
-- A processing run writes its heartbeat and percent every few seconds; nothing public shows them.
CREATE TRIGGER lectures_changed AFTER UPDATE ON lectures FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'processing_heartbeat_at' - 'processing_percent') IS DISTINCT FROM (to_jsonb(NEW) - 'processing_heartbeat_at' - 'processing_percent'))
  EXECUTE FUNCTION lms_catalogue_changed();
