CREATE TABLE "caption_cues" (
	"caption_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"start_ms" integer NOT NULL,
	"end_ms" integer NOT NULL,
	"text" text NOT NULL,
	"search_config" "regconfig" NOT NULL,
	"words" "tsvector" GENERATED ALWAYS AS (to_tsvector(search_config, text)) STORED,
	CONSTRAINT "caption_cues_caption_id_position_pk" PRIMARY KEY("caption_id","position")
);
--> statement-breakpoint
CREATE TABLE "lecture_captions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lecture_id" uuid NOT NULL,
	"language" text NOT NULL,
	"label" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"file_key" text NOT NULL,
	"bytes" integer NOT NULL,
	"cue_count" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lecture_captions_lectureId_language_unique" UNIQUE("lecture_id","language")
);
--> statement-breakpoint
ALTER TABLE "caption_cues" ADD CONSTRAINT "caption_cues_caption_id_lecture_captions_id_fk" FOREIGN KEY ("caption_id") REFERENCES "public"."lecture_captions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lecture_captions" ADD CONSTRAINT "lecture_captions_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caption_cues_words" ON "caption_cues" USING gin ("words");--> statement-breakpoint
CREATE UNIQUE INDEX "lecture_captions_one_default" ON "lecture_captions" USING btree ("lecture_id") WHERE "lecture_captions"."is_default";--> statement-breakpoint
CREATE INDEX "lecture_captions_file_key_index" ON "lecture_captions" USING btree ("file_key");