/** The words of the page a confirmation link of a new email opens; the server's answers are the catalogue's. */
export const emailChangeTexts = {
  title: 'Confirm your new email',
  intro: 'An administrator changed the email of your account to this address. Confirm it, and you log in with it from now on.',
  submit: 'Confirm my new email',
  logIn: 'Log in',
} as const;
