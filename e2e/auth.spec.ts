import { expect, logIn, logInAs, newestMail, newPerson, openMenu, pngFile, registerByApi, signUp, test } from './fixtures.ts';

const wrongCredentials = 'Email or password does not match';

test('signs up with a picture and lands logged in; logs out and back in', async ({ page }) => {
  const person = newPerson('signup');
  await signUp(page, person);

  let menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await menu.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: person.fullName })).toBeVisible();
  await expect(page.getByText(person.email)).toBeVisible();
  // The picture chosen at sign-up, served back by the server.
  const avatar = page.getByRole('img', { name: person.fullName });
  await expect(avatar).toBeVisible();
  expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  menu = await openMenu(page);
  await menu.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Signup' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Profile' })).toHaveCount(0);

  await logIn(page, person.email, person.password);
  await expect(page).toHaveURL(/\/$/);
  menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
});

test('the sign-up form marks the picture required, says its types and limit, and refuses one over 5 MB when it is picked', async ({ page }) => {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await page.goto('/Signup');
  const picture = page.getByLabel('Profile picture');
  // Before anything is sent: required, for the eyes and for assistive technology, with its types and limit.
  await expect(page.getByText('Required', { exact: true })).toBeVisible();
  await expect(picture).toHaveJSProperty('required', true);
  await expect(picture).toHaveAccessibleDescription('jpg, jpeg, png or svg, up to 5 MB');

  // A real picture of 6 MB (a PNG with bytes after its end): refused as it is picked, before any upload.
  const small = pngFile('holiday.png', [200, 90, 40]);
  const big = { ...small, buffer: Buffer.concat([small.buffer, Buffer.alloc(6 * 1024 * 1024 - small.buffer.length)]) };
  await picture.setInputFiles(big);
  await expect(page.getByRole('alert')).toHaveText('“holiday.png” was not used: Pictures may be up to 5 MB, and this one is 6 MB');
  await expect(picture).toHaveAttribute('aria-invalid', 'true');

  // Sent without a picture: the spec's text, naming what is missing; still nothing sent.
  const person = newPerson('bigpic');
  await page.getByLabel('Full name').fill(person.fullName);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Please fill all the details — Profile picture is missing')).toBeVisible();
  expect(sent).toEqual([]);

  // A picture under the limit clears the refusal, and the account is made.
  await picture.setInputFiles(small);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the profile says the learner's role in words, and its card lines up with the sections below it at 1280 px", async ({ page, request }) => {
  const person = newPerson('profile');
  await registerByApi(request, person);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInAs(page, person.email, person.password);
  await page.goto('/user/profile');
  const card = page.locator('.card').filter({ has: page.getByRole('heading', { level: 1, name: person.fullName }) });
  const role = card.getByRole('term').filter({ hasText: 'Role' });
  await expect(role.locator('xpath=following-sibling::dd[1]')).toHaveText('Learner');
  await expect(card.getByText('USER', { exact: true })).toHaveCount(0);

  const sections = [page.getByRole('region', { name: 'Continue watching' }), page.getByRole('region', { name: 'Billing history' })];
  const cardBox = (await card.boundingBox())!;
  for (const section of sections) {
    const box = (await section.boundingBox())!;
    expect(Math.round(box.x)).toBe(Math.round(cardBox.x));
    expect(Math.round(box.x + box.width)).toBe(Math.round(cardBox.x + cardBox.width));
  }
});

test("a wrong password shows the server's message and stays on the login page", async ({ page, request }) => {
  const person = newPerson('wrongpw');
  await registerByApi(request, person);
  await logIn(page, person.email, 'Wrong#pass1');
  await expect(page.getByText(wrongCredentials)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  const menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Login' })).toBeVisible();
});

test('edits the profile: the new name and picture show on the profile', async ({ page, request }) => {
  const person = newPerson('edit');
  await registerByApi(request, person);
  await logInAs(page, person.email, person.password);
  await page.goto('/user/profile');
  const oldSrc = await page.getByRole('img', { name: person.fullName }).getAttribute('src');

  await page.getByRole('link', { name: /edit profile/i }).click();
  await expect(page).toHaveURL(/\/user\/editprofile$/);
  const newName = `${person.fullName} Renamed`;
  await page.getByLabel(/profile picture|avatar/i).setInputFiles(pngFile('new-avatar.png', [20, 160, 60]));
  await page.getByLabel(/full name|^name/i).fill(newName);
  await page.getByRole('button', { name: /update|save/i }).click();

  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByRole('heading', { name: newName })).toBeVisible();
  const avatar = page.getByRole('img', { name: newName });
  await expect(avatar).toBeVisible();
  expect(await avatar.getAttribute('src')).not.toBe(oldSrc);
  // Still so after a reload: the server kept it.
  await page.reload();
  await expect(page.getByRole('heading', { name: newName })).toBeVisible();
});

test('edits only the name: edit profile shows the current picture, which stays', async ({ page, request }) => {
  const person = newPerson('rename');
  await registerByApi(request, person);
  await logInAs(page, person.email, person.password);
  await page.goto('/user/profile');
  const oldSrc = await page.getByRole('img', { name: person.fullName }).getAttribute('src');

  await page.getByRole('link', { name: /edit profile/i }).click();
  await expect(page).toHaveTitle('Edit profile · LMS');
  const current = page.getByRole('img', { name: 'Your current profile picture' });
  await expect(current).toHaveAttribute('src', oldSrc!);
  await expect.poll(() => current.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  const newName = `${person.fullName} Renamed`;
  await page.getByLabel(/full name|^name/i).fill(newName);
  await page.getByRole('button', { name: /update|save/i }).click();

  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByRole('heading', { name: newName })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: newName })).toBeVisible();
  await expect(page.getByRole('img', { name: newName })).toHaveAttribute('src', oldSrc!);
});

test('changes the password: the old one stops working, the new one logs in', async ({ page, request }) => {
  const person = newPerson('change');
  const newPassword = 'Better#2025';
  await registerByApi(request, person);
  await logInAs(page, person.email, person.password);
  await page.goto('/user/profile');
  await page.getByRole('link', { name: /change password/i }).click();
  await expect(page).toHaveURL(/\/changepassword$/);
  await page.getByLabel(/old password/i).fill(person.password);
  await page.getByLabel(/^new password/i).fill(newPassword);
  await page.getByRole('button', { name: /change password/i }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);

  const menu = await openMenu(page);
  await menu.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await logIn(page, person.email, person.password);
  await expect(page.getByText(wrongCredentials)).toBeVisible();
  await logIn(page, person.email, newPassword);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/user/profile');
  await expect(page.getByRole('heading', { name: person.fullName })).toBeVisible();
});

test('forgot password: the mailed link sets a new password that logs in', async ({ page, request, baseURL }) => {
  const person = newPerson('forgot');
  const newPassword = 'Fresh#2026';
  await registerByApi(request, person);

  await page.goto('/login');
  await page.getByRole('link', { name: /forgot password/i }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel(/^email/i).fill(person.email);
  await page.getByRole('button', { name: /send|reset/i }).click();
  await expect(page.getByText(/a reset link has been sent/i).first()).toBeVisible();

  const mail = await newestMail(person.email);
  const link = mail.match(/https?:\/\/\S+?\/reset-password\/[A-Za-z0-9_-]+/)?.[0];
  expect(link, mail).toBeTruthy();
  expect(link!.startsWith(`${baseURL}/reset-password/`)).toBe(true);
  await page.goto(link!);
  await page.getByLabel(/^new password/i).fill(newPassword);
  await page.getByLabel(/confirm/i).fill(newPassword);
  await page.getByRole('button', { name: /reset password/i }).click();
  await expect(page).toHaveURL(/\/login$/);

  await logIn(page, person.email, newPassword);
  await expect(page).toHaveURL(/\/$/);
  const menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
});
