CREATE TABLE "course_completion_counts" (
	"course_id" uuid NOT NULL,
	"completed_lectures" integer NOT NULL,
	"learners" integer NOT NULL,
	CONSTRAINT "course_completion_counts_course_id_completed_lectures_pk" PRIMARY KEY("course_id","completed_lectures")
);
--> statement-breakpoint
CREATE TABLE "course_progress" (
	"user_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"completed_lectures" integer DEFAULT 0 NOT NULL,
	"last_lecture_id" uuid,
	"last_watched_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_progress_user_id_course_id_pk" PRIMARY KEY("user_id","course_id")
);
--> statement-breakpoint
CREATE TABLE "lecture_progress" (
	"user_id" uuid NOT NULL,
	"lecture_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"position_seconds" real NOT NULL,
	"position_at" timestamp with time zone NOT NULL,
	"watched_seconds" real DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"completion_set_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lecture_progress_user_id_lecture_id_pk" PRIMARY KEY("user_id","lecture_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "autoplay_next" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "course_completion_counts" ADD CONSTRAINT "course_completion_counts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_progress" ADD CONSTRAINT "course_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_progress" ADD CONSTRAINT "course_progress_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_progress" ADD CONSTRAINT "course_progress_last_lecture_id_lectures_id_fk" FOREIGN KEY ("last_lecture_id") REFERENCES "public"."lectures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_progress" ADD CONSTRAINT "lecture_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_progress" ADD CONSTRAINT "lecture_progress_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_progress" ADD CONSTRAINT "lecture_progress_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_progress_course_id_completed_lectures_index" ON "course_progress" USING btree ("course_id","completed_lectures");--> statement-breakpoint
CREATE INDEX "course_progress_last_watched_at_user_id_index" ON "course_progress" USING btree ("last_watched_at","user_id");--> statement-breakpoint
CREATE INDEX "course_progress_last_lecture_id_index" ON "course_progress" USING btree ("last_lecture_id");--> statement-breakpoint
CREATE INDEX "lecture_progress_lecture_id_index" ON "lecture_progress" USING btree ("lecture_id");--> statement-breakpoint
CREATE INDEX "lecture_progress_course_id_index" ON "lecture_progress" USING btree ("course_id");--> statement-breakpoint
-- Written by hand: course_completion_counts follows course_progress. Row triggers for inserts and
-- for updates that change the count (a save that changes nothing a reader sees fires nothing: the
-- WHEN is checked without calling the function); one statement trigger for deletes, so that deleting
-- a course or a user with many rows costs one aggregate.
CREATE FUNCTION course_completion_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO course_completion_counts AS k (course_id, completed_lectures, learners)
      SELECT course_id, completed_lectures, -count(*) FROM old_rows
      -- A course being deleted takes its counts with it.
      WHERE EXISTS (SELECT 1 FROM courses WHERE courses.id = old_rows.course_id)
      GROUP BY 1, 2
      ON CONFLICT (course_id, completed_lectures) DO UPDATE SET learners = k.learners + excluded.learners;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    UPDATE course_completion_counts SET learners = learners - 1
      WHERE course_id = OLD.course_id AND completed_lectures = OLD.completed_lectures;
  END IF;
  INSERT INTO course_completion_counts AS k (course_id, completed_lectures, learners)
    VALUES (NEW.course_id, NEW.completed_lectures, 1)
    ON CONFLICT (course_id, completed_lectures) DO UPDATE SET learners = k.learners + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER course_completion_counts_insert AFTER INSERT ON course_progress FOR EACH ROW EXECUTE FUNCTION course_completion_counts_follow();
--> statement-breakpoint
CREATE TRIGGER course_completion_counts_update AFTER UPDATE OF completed_lectures, course_id ON course_progress FOR EACH ROW
  WHEN (OLD.completed_lectures IS DISTINCT FROM NEW.completed_lectures OR OLD.course_id IS DISTINCT FROM NEW.course_id)
  EXECUTE FUNCTION course_completion_counts_follow();
--> statement-breakpoint
CREATE TRIGGER course_completion_counts_delete AFTER DELETE ON course_progress REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION course_completion_counts_follow();
