/** User statistics (the `stat` area), for anyone who reads it outside the dashboard. */
export { selectStats } from './stats.api';
