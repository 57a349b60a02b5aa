/** The administrator's learners: the pages are the router's (lazy); other features link to a learner with this. */
export { learnerLink } from './learner-link';
