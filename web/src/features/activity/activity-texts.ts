/**
 * The words of the Activity page (the audit trail). Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the page.
 * The actions' and areas' names are the contract's (AUDIT_ACTIONS, AUDIT_AREA_LABELS), as the CSV has them.
 */
export const activityTexts = {
  title: 'Activity',
  intro: 'Everything administrators did to people, money, content and settings: who, what, when and why. Entries are never changed or removed.',
  // The filters
  filters: 'Filter the activity',
  area: 'Area',
  allAreas: 'All areas',
  action: 'Action',
  allActions: 'All actions',
  administrator: 'Administrator',
  allAdministrators: 'All administrators',
  from: 'From',
  to: 'To',
  target: 'Target',
  targetOnly: 'Showing one target’s activity',
  clearTarget: 'Show everyone’s',
  clear: 'Clear filters',
  exportCsv: 'Export CSV',
  exportHint: 'The entries these filters find, as a spreadsheet',
  // The list
  listLabel: 'Activity entries',
  when: 'When',
  reason: 'Reason',
  summary: 'Summary',
  queue: 'Automatic',
  noTarget: '—',
  loading: 'Loading activity…',
  failed: 'The activity could not be loaded.',
  empty: 'No activity yet',
  emptyHint: 'When an administrator changes a course, a plan, the settings or a learner’s access, it is written here.',
  emptyFiltered: 'Nothing matches these filters',
  emptyFilteredHint: 'Try other dates, or clear the filters.',
  loadMore: 'Load more',
  loadingMore: 'Loading…',
  shown: (n: number) => `${new Intl.NumberFormat('en-IN').format(n)} shown`,
};
