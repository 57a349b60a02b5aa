import { createAction } from '@reduxjs/toolkit';

/**
 * Someone else is looking now: signed in or out, another role, a subscription that started or ended.
 * The session announces it; the server-state cache then drops the answers made for the previous
 * viewer (video URLs, access, admin figures). A plain action, so that announcing it does not load the cache.
 */
export const viewerChanged = createAction('viewer/changed');
