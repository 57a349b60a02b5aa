CREATE TABLE "quiz_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quiz_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"question_order" jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"score" integer,
	"correct_count" integer,
	"passed" boolean DEFAULT false NOT NULL,
	"answers" jsonb,
	"correct" jsonb,
	CONSTRAINT "quiz_attempts_userId_quizId_number_unique" UNIQUE("user_id","quiz_id","number"),
	CONSTRAINT "quiz_attempts_state" CHECK ("quiz_attempts"."state" in ('open', 'graded', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "quiz_question_stats" (
	"quiz_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "quiz_question_stats_quiz_id_question_id_pk" PRIMARY KEY("quiz_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "quiz_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quiz_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"pass_mark" integer NOT NULL,
	"attempts_allowed" integer,
	"time_limit_minutes" integer,
	"shuffle_questions" boolean NOT NULL,
	"shuffle_options" boolean NOT NULL,
	"layout" text NOT NULL,
	"questions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiz_versions_quizId_number_unique" UNIQUE("quiz_id","number")
);
--> statement-breakpoint
CREATE TABLE "quizzes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"section_id" uuid,
	"after_lecture_id" uuid,
	"current_version" integer DEFAULT 1 NOT NULL,
	"finished_attempts" integer DEFAULT 0 NOT NULL,
	"passed_attempts" integer DEFAULT 0 NOT NULL,
	"score_total" bigint DEFAULT 0 NOT NULL,
	"learners" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_version_id_quiz_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."quiz_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_question_stats" ADD CONSTRAINT "quiz_question_stats_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_versions" ADD CONSTRAINT "quiz_versions_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_after_lecture_id_lectures_id_fk" FOREIGN KEY ("after_lecture_id") REFERENCES "public"."lectures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quiz_attempts_user_id_quiz_id_index" ON "quiz_attempts" USING btree ("user_id","quiz_id") WHERE "quiz_attempts"."state" = 'open';--> statement-breakpoint
CREATE INDEX "quiz_attempts_quiz_id_user_id_score_passed_index" ON "quiz_attempts" USING btree ("quiz_id","user_id","score","passed") WHERE "quiz_attempts"."state" <> 'open';--> statement-breakpoint
CREATE INDEX "quiz_attempts_course_id_started_at_index" ON "quiz_attempts" USING btree ("course_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quiz_attempts_user_id_course_id_index" ON "quiz_attempts" USING btree ("user_id","course_id");--> statement-breakpoint
CREATE INDEX "quiz_attempts_version_id_index" ON "quiz_attempts" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "quizzes_course_id_created_at_index" ON "quizzes" USING btree ("course_id","created_at");--> statement-breakpoint
CREATE INDEX "quizzes_section_id_index" ON "quizzes" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "quizzes_after_lecture_id_index" ON "quizzes" USING btree ("after_lecture_id");