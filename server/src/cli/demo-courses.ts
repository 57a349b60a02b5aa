import { createReadStream } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { QuizInputSchema, type QuizInput } from '@lms/contract/quizzes';
import type { Testimonial } from '@lms/contract/settings';
import type { Context } from '../context.ts';
import { courses, users } from '../db/schema.ts';
import { createCourse, deleteCourse } from '../features/courses/courses.service.ts';
import { publishCourse } from '../features/courses/publishing.service.ts';
import { createLecture, storeLectureVideo } from '../features/lectures/lectures.service.ts';
import { createQuiz } from '../features/quizzes/authoring.service.ts';
import { writeSettings } from '../features/settings/site-settings.ts';
import { paths } from '../paths.ts';

/** The one shipped lecture video (see server/assets/demo/README.md); every demo lecture plays it. */
export const DEMO_VIDEO = { file: path.join(paths.demoAssets, 'lecture-intro.mp4') };

export interface DemoCourse {
  title: string;
  description: string;
  category: string;
  createdBy: string;
  /** The thumbnail's gradient, drawn at seed time rather than shipped. */
  colors: readonly [string, string];
  lectures: readonly { title: string; description: string }[];
  /** A quiz after the last lecture, so that a newcomer finds one. */
  quiz?: QuizInput;
}

export const DEMO_COURSES: readonly DemoCourse[] = [
  {
    title: 'Modern JavaScript from Scratch',
    description:
      'Learn the JavaScript that runs today’s web, starting from zero: values and types, functions and closures, arrays and objects, modules, and asynchronous code with promises and async/await. Every idea comes with a small exercise you can run in the browser.',
    category: 'Web Development',
    createdBy: 'Asha Verma',
    colors: ['#f7b733', '#fc4a1a'],
    lectures: [
      { title: 'Welcome and setting up', description: 'What the course covers, and a browser plus an editor is all you need to follow along.' },
      { title: 'Values, variables and types', description: 'let and const, numbers, strings and booleans, and the surprises of type coercion.' },
      { title: 'Functions and closures', description: 'Declaring and passing functions, arrow functions, and how a closure remembers its scope.' },
    ],
    quiz: {
      title: 'Check your JavaScript basics',
      passMark: 60,
      questions: [
        {
          type: 'single',
          prompt: 'Which keyword declares a variable that cannot be assigned again?',
          options: [
            { text: 'let', correct: false },
            { text: 'const', correct: true },
            { text: 'var', correct: false },
          ],
          explanation: 'const binds a name once; let and var may be assigned again.',
        },
        {
          type: 'multiple',
          prompt: 'Which of these are primitive types?',
          options: [
            { text: 'string', correct: true },
            { text: 'number', correct: true },
            { text: 'array', correct: false },
            { text: 'boolean', correct: true },
          ],
          explanation: 'An array is an object; strings, numbers and booleans are primitives.',
        },
        {
          type: 'text',
          prompt: "What does '3' * '4' evaluate to?",
          answers: ['12'],
          explanation: 'The * operator turns both strings into numbers before multiplying.',
        },
        {
          type: 'text',
          prompt: 'What does typeof null answer? Write the word without quotes.',
          answers: ['object'],
          explanation: 'A quirk kept since the first version of the language: null reports itself as an object.',
        },
      ],
    },
  },
  {
    title: 'Data Analysis with Python and pandas',
    description:
      'Turn raw spreadsheets into answers. Load CSV files into pandas, clean and reshape them, group and aggregate, and draw clear charts — the everyday toolkit of a working analyst, taught on real-world sample data.',
    category: 'Data Science',
    createdBy: 'Rohan Mehta',
    colors: ['#0f7c6c', '#1fa463'],
    lectures: [
      { title: 'Your first DataFrame', description: 'Reading a CSV file, looking at its columns, and selecting the rows you care about.' },
      { title: 'Cleaning messy data', description: 'Missing values, duplicates and inconsistent text, fixed in a few reproducible steps.' },
    ],
  },
  {
    title: 'UI Design Fundamentals',
    description:
      'The principles behind interfaces that feel effortless: visual hierarchy, spacing and alignment, typography, colour and contrast, and designing for accessibility. Ends with a critique of a real sign-up screen.',
    category: 'Design',
    createdBy: 'Meera Iyer',
    colors: ['#8e2de2', '#4a00e0'],
    lectures: [
      { title: 'Hierarchy and layout', description: 'Guiding the eye with size, weight and whitespace, and a simple grid to hold it together.' },
      { title: 'Colour and contrast', description: 'Building a small palette and checking it meets accessibility contrast guidelines.' },
    ],
  },
  {
    title: 'Personal Finance Essentials',
    description:
      'A practical, jargon-free introduction to managing money: budgeting that sticks, an emergency fund, understanding interest and debt, and the basics of long-term investing.',
    category: 'Business',
    createdBy: 'Daniel Okafor',
    colors: ['#1a5f7a', '#2193b0'],
    lectures: [{ title: 'Building a budget that works', description: 'Tracking a month of spending and splitting income into needs, wants and savings.' }],
  },
];

/**
 * On the first start with an empty database (no accounts and no courses at all), fills the
 * catalogue with DEMO_COURSES so a newcomer sees something real. Once anyone has signed up (the initial
 * admin is created right after this), it never runs again, so an admin who deletes every course does not
 * get them back. Nothing is fetched: the video is shipped, the thumbnails are drawn here.
 * Instances starting together against one empty PostgreSQL could each seed; the worst outcome is a
 * duplicate demo catalogue, which an admin can delete.
 */
/**
 * What learners say on the home page of a demo site: made-up learners, with no photos of real people.
 * They come with the demo courses and only with them; a seller's own site starts with none.
 */
export const DEMO_TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      'I had tried free videos for months and kept losing the thread. Here the lectures are short and in order, and I finally finished a course, then started the next one.',
    name: 'Kavya Reddy',
    role: 'Final-year engineering student, Hyderabad',
  },
  {
    quote: 'One price for everything changed how I learn. I opened a design course out of curiosity, and what I picked up there is now part of my job.',
    name: 'Arjun Malhotra',
    role: 'Product manager, Pune',
  },
  {
    quote: 'I watch a lecture on the train most mornings. When exams came I cancelled from my profile, and a month later I was back where I had stopped.',
    name: 'Sneha Kulkarni',
    role: 'Chartered accountancy student, Mumbai',
  },
];

export async function seedDemoCourses(ctx: Context, log: (line: string) => void): Promise<boolean> {
  if (!(await isEmpty(ctx))) return false;
  const created: string[] = [];
  try {
    // The catalogue lists newest first: adding them in reverse shows them in the order written above.
    for (const demo of [...DEMO_COURSES].reverse()) {
      const { title, description, category, createdBy } = demo;
      const course = await createCourse(ctx, { title, description, category, createdBy }, await drawThumbnail(demo));
      created.push(course.id);
      let lastLectureId: string | null = null;
      for (const [index, lecture] of demo.lectures.entries()) {
        const video = await storeLectureVideo(ctx, createReadStream(DEMO_VIDEO.file));
        // Each course's first lecture is a free preview, so a newcomer sees one on every course page.
        // Durations, the poster and the HLS ladder come from the video pipeline, as for any upload.
        lastLectureId = (await createLecture(ctx, course.id, { ...lecture, isPreview: index === 0 }, video)).id;
      }
      if (demo.quiz) await createQuiz(ctx, course.id, { ...QuizInputSchema.parse(demo.quiz), sectionId: null, afterLectureId: lastLectureId });
      await publishCourse(ctx, course.id, {});
    }
    await writeSettings(ctx, [['testimonials', DEMO_TESTIMONIALS]], null);
  } catch (error) {
    // Leaves the database empty again, so the next start tries afresh instead of keeping half a catalogue.
    for (const id of created) await deleteCourse(ctx, id).catch(() => undefined);
    throw error;
  }
  log(`Added ${DEMO_COURSES.length} demo courses to the empty catalogue`);
  return true;
}

async function isEmpty(ctx: Pick<Context, 'db'>): Promise<boolean> {
  const [[user], [course]] = await Promise.all([
    ctx.db
      .select({ one: sql`1` })
      .from(users)
      .limit(1),
    ctx.db
      .select({ one: sql`1` })
      .from(courses)
      .limit(1),
  ]);
  return !user && !course;
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Greedy word wrap; SVG text does not wrap by itself. */
function wrap(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= maxChars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** A 640×360 PNG: the course's gradient, a few circles, its category and its title in large type. */
async function drawThumbnail(course: Pick<DemoCourse, 'title' | 'category' | 'colors'>): Promise<Buffer> {
  const [from, to] = course.colors;
  const lines = wrap(course.title, 18).slice(0, 3);
  const fontSize = 46;
  const top = 180 - ((lines.length - 1) * fontSize * 1.15) / 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="640" height="360" fill="url(#g)"/>
  <circle cx="560" cy="60" r="130" fill="#ffffff" fill-opacity="0.14"/>
  <circle cx="600" cy="320" r="80" fill="#ffffff" fill-opacity="0.10"/>
  <circle cx="40" cy="340" r="60" fill="#000000" fill-opacity="0.08"/>
  <g font-family="DejaVu Sans, Helvetica, Arial, sans-serif" fill="#ffffff">
    <text x="40" y="56" font-size="20" font-weight="bold" letter-spacing="2" fill-opacity="0.9">${escapeXml(course.category.toUpperCase())}</text>
    ${lines
      .map((line, i) => `<text x="40" y="${top + i * fontSize * 1.15 + fontSize / 3}" font-size="${fontSize}" font-weight="bold">${escapeXml(line)}</text>`)
      .join('\n    ')}
  </g>
</svg>`;
  // Loaded only on the one start that seeds.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).png().toBuffer();
}
