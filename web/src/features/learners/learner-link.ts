import { paths } from '../../lib/paths';

/** A learner's page, by id in the address (so a reload or a shared link finds them again). */
export const learnerLink = (id: string) => ({ pathname: paths.learner, search: `?id=${id}` });
