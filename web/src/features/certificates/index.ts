/** Certificates for learners: the profile's card and the lecture page's block (the public page is a route of its own). */
export { CertificatesCard } from './CertificatesCard';
export { CourseCertificate } from './CourseCertificate';
