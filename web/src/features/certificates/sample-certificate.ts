import type { Certificate } from '@lms/contract/certificates';

/** A learner's certificate as the API answers one, for the tests; override what a test is about. */
export const sampleCertificate = (overrides: Partial<Certificate> = {}): Certificate => ({
  _id: '50000000-0000-4000-8000-000000000001',
  courseId: '60000000-0000-4000-8000-000000000001',
  code: '7K2M9QXD4T8RB3HW',
  name: 'Asha Verma',
  courseTitle: 'Data Structures in TypeScript',
  instructor: 'Ravi Kumar',
  issuer: 'Learn Academy',
  issuedAt: '2026-11-27T06:30:00.000Z',
  revokedAt: null,
  state: 'ready',
  pdfUrl: '/certificates/7K2M9QXD4T8RB3HW/pdf',
  verifyUrl: 'https://learn.example.com/certificates/7K2M9QXD4T8RB3HW',
  linkedInUrl: 'https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME&name=Data%20Structures%20in%20TypeScript',
  ...overrides,
});
