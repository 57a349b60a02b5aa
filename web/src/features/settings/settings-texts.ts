import { AA_CONTRAST } from '@lms/contract/contrast';
import { FAQ_MAX, TESTIMONIALS_MAX, type SocialNetwork } from '@lms/contract/settings';

/**
 * The words of the site settings page and the first administrator's setup. Not in the message
 * catalogue (contract/src/messages.ts), which ships in every page's first chunk: these load with
 * the pages. The server's answers (saved, refusals) are the catalogue's, shown by the API client.
 */
export const settingsTexts = {
  title: 'Site settings',
  intro: 'What visitors see of your business: its name, logo, colours, home page, contact details and legal pages; and how its videos are protected.',
  sections: 'Sections',
  loading: 'Loading the settings…',
  failed: 'The settings could not be loaded.',
  save: 'Save',
  saving: 'Saving…',
  optional: 'optional',

  siteTitle: 'Site',
  siteIntro: 'The name shows in the header, the footer, the browser tab, mails and invoices.',
  name: 'Site name',
  shortName: 'Short name',
  shortNameHint: 'What a phone shows under the icon when the site is added to the home screen.',

  logoTitle: 'Logo',
  logoIntro: 'Shown in the header beside the name; the browser tab and app icons are made from it. SVG, PNG or WebP, square works best.',
  currentLogo: 'Current logo',
  noLogo: 'No logo yet: the header shows the name alone and the product’s icon.',
  chooseLogo: 'Upload a logo',
  replaceLogo: 'Replace logo',
  chooseLogoFile: 'Logo file',
  removeLogo: 'Remove',
  removeLogoConfirm: 'Remove the logo? The header shows the name alone, and the product’s icons return.',
  uploading: (percent: number) => `Uploading… ${percent}%`,
  uploadProgress: 'Logo upload',
  cancelUpload: 'Cancel',

  brandTitle: 'Brand colour',
  brandIntro:
    'Buttons, links and highlights take your colour. Each theme gets its own shade, so that text reads on it and it reads on the page (at least 4.5:1).',
  brandColour: 'Your brand colour',
  brandColourHint: 'Choosing it proposes a shade for each theme below; you may change either.',
  usingProductColours: 'The site uses the product’s own colours now.',
  useProductColours: 'Use the product’s colours',
  themeName: { light: 'Light theme', dark: 'Dark theme' } as const,
  primary: 'Button colour',
  content: 'Text on the button',
  picker: (label: string) => `${label}: picker`,
  ratioOnButton: 'Text on button',
  ratioOnPage: 'Colour on page',
  passes: 'passes',
  fails: 'too low',
  ratioNeeded: `needs ${AA_CONTRAST}:1`,
  previewOf: (theme: string) => `Preview: ${theme}`,
  previewButton: 'Subscribe',
  previewLink: 'See all courses',
  previewBadge: 'New',
  previewText: 'Learn at your own pace.',
  cannotSave: 'Cannot save yet:',

  heroTitle: 'Home page',
  heroIntro: 'The words at the top of the home page.',
  headline: 'Headline',
  heroText: 'Intro text',
  productWords: 'Leave empty for the product’s own words.',

  testimonialsTitle: 'Testimonials',
  testimonialsIntro: `What learners say, on the home page, in this order. At most ${TESTIMONIALS_MAX}.`,
  noTestimonials: 'No testimonials: the home page leaves the section out. Add what a learner said of your courses.',
  testimonial: (n: number) => `Testimonial ${n}`,
  addTestimonial: 'Add a testimonial',
  quote: 'Quote',
  personName: 'Name',
  role: 'Role',
  roleHint: 'e.g. “Data analyst, Pune”',

  faqTitle: 'Questions and answers',
  faqIntro: `The home page’s questions, in this order. At most ${FAQ_MAX}.`,
  productQuestions: 'The home page shows the product’s own questions about the bundle. Add one to write your own instead.',
  noQuestions: 'No questions: the home page leaves the section out.',
  question: 'Question',
  answer: 'Answer',
  entry: (n: number) => `Question ${n}`,
  addQuestion: 'Add a question',
  useProductQuestions: 'Use the product’s questions',

  moveUp: (what: string) => `Move ${what} up`,
  moveDown: (what: string) => `Move ${what} down`,
  remove: (what: string) => `Remove ${what}`,
  removeWord: 'Remove',
  limitReached: (max: number) => `That is the most there can be (${max}).`,

  socialTitle: 'Social links',
  socialIntro: 'Shown as icons in the footer. Leave a link empty to leave its icon out.',
  social: { facebook: 'Facebook', instagram: 'Instagram', twitter: 'X (Twitter)', linkedin: 'LinkedIn', youtube: 'YouTube' } satisfies Record<
    SocialNetwork,
    string
  >,
  socialPlaceholder: (network: SocialNetwork) => `https://www.${network === 'twitter' ? 'x' : network}.com/…`,

  contactTitle: 'Contact details',
  contactIntro: 'Shown on the contact page and in the footer. Leave any empty to leave it out.',
  email: 'Email',
  phone: 'Phone',
  address: 'Postal address',

  sellerTitle: 'Seller (invoices)',
  sellerIntro: 'Who invoices and credit notes name as the seller.',
  legalName: 'Legal name',
  gstin: 'GSTIN',
  gstinHint: 'Leave empty if not registered for GST. Its first two digits are the state’s code.',
  state: 'State',
  chooseState: 'Choose a state',
  fromEnvironment: (variable: string) => `Set by the server’s environment (${variable}), which wins over this page.`,

  legalTitle: 'Legal pages',
  legalIntro: 'Linked from the footer. Open a page to edit its text.',
  legalPages: { terms: 'Terms of service', privacy: 'Privacy policy', 'refund-policy': 'Refund policy' } as const,
  template: 'Template — review before going live',
  written: 'Written',

  protectionTitle: 'Content protection',
  protectionIntro:
    'How many devices an account may use, and the watermark every video carries with the viewer’s email and a code. No website can stop a screen recording: these limit sharing, and the watermark makes a leaked recording traceable (Leak trace).',
  maxStreams: 'Simultaneous streams',
  maxStreamsHint: 'Devices one account may play videos on at the same time (1 to 10). Administrators are not limited.',
  maxDevices: 'Signed-in devices',
  maxDevicesHint: 'Devices one account may stay signed in on (0 to 20; 0 = no limit). Past it, the oldest session ends and the learner is told by mail.',
  watermarkOpacity: 'Watermark opacity',
  watermarkOpacityValue: (percent: number) => `${percent} %`,
  watermarkSize: 'Watermark size',
  watermarkSizes: { small: 'Small', medium: 'Medium', large: 'Large' } as const,
  watermarkPreview: 'Watermark preview',
  watermarkPreviewNote: 'How the watermark looks over a dark scene; on a video it moves to a new place every 15 to 30 seconds.',
  previewEmail: 'ra•••@gmail.com',
  previewCode: '7K2M-9QXD',
  riskTitle: 'Sharing risk',
  riskHint: 'The dashboard lists an account seen, in 24 hours, from more networks, or refused more streams, than these.',
  riskAddressBlocks: 'Address blocks',
  riskAddressBlocksHint: 'Distinct networks (2 to 50); a home or a phone’s carrier counts as one.',
  riskRefusals: 'Refused streams',
  riskRefusalsHint: 'Times a stream was refused for too many devices at once (1 to 500).',

  // The first administrator's setup
  setupTitle: 'Set up your site',
  setupIntro: 'Four short steps; each can be skipped and changed later in Site settings.',
  steps: ['Name', 'Logo', 'Colour', 'Contact'] as const,
  stepOf: (n: number, of: number) => `Step ${n} of ${of}`,
  back: 'Back',
  skip: 'Skip',
  skipAndFinish: 'Skip and finish',
  next: 'Next',
  finish: 'Finish',
  saveAndContinue: 'Save and continue',
};

/** The environment variables that set the seller's fields, named where a field is locked. */
export const SELLER_VARIABLES = { legalName: 'SELLER_NAME', gstin: 'SELLER_GSTIN', stateCode: 'SELLER_STATE' } as const;
