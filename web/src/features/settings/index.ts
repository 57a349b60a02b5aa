/** What other features use of the site settings: the admin's settings as loaded, and their changes. */
export { useGetSettingsQuery, useUpdateSettingsMutation } from './settings.api';
