import fs from 'node:fs';
import { adminCredentials, expect, newPerson, pngFile, registerByApi, test } from './fixtures.ts';
import { LECTURE_VIDEO } from './journeys.ts';

// Run by playwright.cluster.config.ts only: two instances behind nginx, each reached here directly,
// past nginx, so that a write lands on one and the read that must see it on the other (decision 0019).

/** Instance A and instance B's own addresses (cluster-setup.ts). */
function instances(): [string, string] {
  const [a, b] = (process.env.E2E_INSTANCE_URLS ?? '').split(' ').filter(Boolean);
  if (!a || !b) throw new Error('E2E_INSTANCE_URLS names fewer than two instances: run through playwright.cluster.config.ts');
  return [a, b];
}

/** How soon the other instance must agree (decision 0019): asked every 50 ms for a second. */
const WITHIN_A_SECOND = { timeout: 1000, intervals: [50] };

/** Logs in through the instance at `url`; answers the Cookie header that carries the session. */
async function logInThrough(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

test("a course retitled through one instance has its new title in the other's catalogue within a second", async () => {
  const [a, b] = instances();
  const { email, password } = adminCredentials();
  const cookie = await logInThrough(a, email, password);
  const title = `Cluster course ${Date.now().toString(36)}`;
  const thumbnail = pngFile('thumbnail.png', [40, 160, 90]);
  const form = new FormData();
  form.set('title', title);
  form.set('description', 'Made through one instance, read through the other.');
  form.set('category', 'Operations');
  form.set('createdBy', 'E2E');
  form.set('thumbnail', new Blob([thumbnail.buffer], { type: thumbnail.mimeType }), thumbnail.name);
  const created = await fetch(`${a}/api/v1/courses`, { method: 'POST', headers: { cookie }, body: form });
  expect(created.status, await created.clone().text()).toBe(201);
  const { course } = (await created.json()) as { course: { _id: string } };
  // A new course is a draft: with a lecture, it is published, and visitors' catalogues (cached) list it.
  const lecture = new FormData();
  lecture.set('title', 'The one lecture');
  lecture.set('description', 'So that the course may be published.');
  lecture.set('lectures', new Blob([fs.readFileSync(LECTURE_VIDEO)], { type: 'video/mp4' }), 'lecture.mp4');
  const added = await fetch(`${a}/api/v1/courses/${course._id}`, { method: 'POST', headers: { cookie }, body: lecture });
  expect(added.status, await added.clone().text()).toBe(201);
  const published = await fetch(`${a}/api/v1/courses/${course._id}/publish`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(published.status, await published.clone().text()).toBe(200);

  const titleThroughB = async () => {
    const response = await fetch(`${b}/api/v1/courses?id=${course._id}`);
    const { courses } = (await response.json()) as { courses: { title: string }[] };
    return courses[0]?.title;
  };
  try {
    // B has read the course, and may keep that page of its catalogue, before the change.
    await expect.poll(titleThroughB, { message: 'instance B lists the new course' }).toBe(title);

    const retitle = new FormData();
    retitle.set('title', `${title} (retitled)`);
    const changed = await fetch(`${a}/api/v1/courses/${course._id}`, { method: 'PUT', headers: { cookie }, body: retitle });
    expect(changed.status, await changed.clone().text()).toBe(200);
    await expect.poll(titleThroughB, { ...WITHIN_A_SECOND, message: 'instance B lists the new title within a second' }).toBe(`${title} (retitled)`);
  } finally {
    await fetch(`${a}/api/v1/courses/${course._id}`, { method: 'DELETE', headers: { cookie } });
  }
});

test('a login through one instance holds on the other; a logout through the first ends it on the other within a second', async ({ request }) => {
  const [a, b] = instances();
  const person = newPerson('cluster');
  await registerByApi(request, person);
  const cookie = await logInThrough(a, person.email, person.password);
  const meThroughB = async () => (await fetch(`${b}/api/v1/user/me`, { headers: { cookie } })).status;
  expect(await meThroughB()).toBe(200);

  const logout = await fetch(`${a}/api/v1/user/logout`, { method: 'POST', headers: { cookie } });
  expect(logout.status, await logout.clone().text()).toBe(200);
  await expect.poll(meThroughB, { ...WITHIN_A_SECOND, message: 'instance B refuses the ended session within a second' }).toBe(401);
});

test("nginx's workers, which parse every request, never run as root, even when root started the cluster", () => {
  const master = Number(process.env.E2E_NGINX_PID);
  expect(master, 'E2E_NGINX_PID (cluster-setup.ts)').toBeGreaterThan(0);
  /** A process's parent and real user id, from /proc/<pid>/status; undefined once it has gone. */
  const statusOf = (pid: string) => {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return undefined;
    }
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1]);
    return { ppid: field('PPid'), uid: field('Uid') };
  };
  const workers = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(statusOf)
    .filter((status) => status?.ppid === master);
  expect(workers.length, 'nginx runs workers').toBeGreaterThan(0);
  for (const worker of workers) expect(worker!.uid).not.toBe(0);
});
