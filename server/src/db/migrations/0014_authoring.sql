CREATE TABLE "course_sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"title" text NOT NULL,
	"rank" text collate "C" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "course_sections_courseId_rank_unique" UNIQUE("course_id","rank")
);
--> statement-breakpoint
CREATE TABLE "lecture_resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lecture_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "courses_created_at_id_index";--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
-- Every course made before drafts existed was public from its creation.
UPDATE "courses" SET "status" = 'published', "published_at" = "created_at";--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "section_id" uuid;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "rank" text collate "C";--> statement-breakpoint
-- Each course's lectures keep the order they were added in, as fractional-indexing keys:
-- 'a0'…'az' for the first 62, then 'b00'…'bzz', then 'c000'…, the keys that library counts up with.
UPDATE "lectures" SET "rank" = numbered."rank"
FROM (
  SELECT "id", CASE
    WHEN n < 62 THEN 'a' || substr(d, n + 1, 1)
    WHEN n < 62 + 3844 THEN 'b' || substr(d, (n - 62) / 62 + 1, 1) || substr(d, (n - 62) % 62 + 1, 1)
    ELSE 'c' || substr(d, (n - 3906) / 3844 + 1, 1) || substr(d, (n - 3906) / 62 % 62 + 1, 1) || substr(d, (n - 3906) % 62 + 1, 1)
  END AS "rank"
  FROM (
    SELECT "id", (row_number() OVER (PARTITION BY "course_id" ORDER BY "created_at", "id") - 1)::int AS n,
      '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' AS d
    FROM "lectures"
  ) AS positions
) AS numbered
WHERE "lectures"."id" = numbered."id";--> statement-breakpoint
ALTER TABLE "lectures" ALTER COLUMN "rank" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "replacement_video_key" text;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "replacement_video_type" text;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "replacement_video_bytes" bigint;--> statement-breakpoint
ALTER TABLE "course_sections" ADD CONSTRAINT "course_sections_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_resources" ADD CONSTRAINT "lecture_resources_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lecture_resources_lecture_id_created_at_index" ON "lecture_resources" USING btree ("lecture_id","created_at");--> statement-breakpoint
CREATE INDEX "lecture_resources_file_key_index" ON "lecture_resources" USING btree ("file_key");--> statement-breakpoint
ALTER TABLE "lectures" ADD CONSTRAINT "lectures_section_id_course_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."course_sections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courses_published_at_created_at_id_index" ON "courses" USING btree ("published_at" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "courses_publish_at_index" ON "courses" USING btree ("publish_at") WHERE "courses"."publish_at" is not null;--> statement-breakpoint
CREATE INDEX "lectures_section_id_index" ON "lectures" USING btree ("section_id");--> statement-breakpoint
CREATE INDEX "lectures_replacement_video_key_index" ON "lectures" USING btree ("replacement_video_key");--> statement-breakpoint
ALTER TABLE "lectures" ADD CONSTRAINT "lectures_courseId_sectionId_rank_unique" UNIQUE NULLS NOT DISTINCT("course_id","section_id","rank");--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_status" CHECK ("courses"."status" in ('draft', 'published'));--> statement-breakpoint
-- Sections show in the public curriculum, resources beside their lecture: every instance drops its copies.
CREATE TRIGGER course_sections_changed AFTER INSERT OR UPDATE OR DELETE ON course_sections FOR EACH STATEMENT EXECUTE FUNCTION lms_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER lecture_resources_changed AFTER INSERT OR UPDATE OR DELETE ON lecture_resources FOR EACH STATEMENT EXECUTE FUNCTION lms_catalogue_changed();
