/** The words every administrator's page shares: the trail back to the dashboard. */
export const adminPageTexts = {
  trail: 'Admin pages',
  dashboard: 'Admin Dashboard',
};
