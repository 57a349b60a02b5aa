/** What other features use of content protection: the dashboard's sharing-risk card. */
export { SharingRiskCard } from './SharingRiskCard';
