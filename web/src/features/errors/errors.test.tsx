import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { renderPage } from '../../test/render';
import DeniedPage from './DeniedPage';
import NotFoundPage from './NotFoundPage';

describe('error pages', () => {
  // Each page sets its own tab title: none is left from the page before.
  beforeEach(() => {
    document.title = '';
  });

  it('404 says "Page not Found" with a way home', async () => {
    renderPage(<NotFoundPage />, { path: '/nowhere' });
    expect(await screen.findByRole('heading', { name: messages.pageNotFound })).toBeInTheDocument();
    expect(document.title).toBe('Page not Found · LMS');
    expect(screen.getByRole('link', { name: messages.goHome })).toHaveAttribute('href', '/');
  });

  it('/denied says "Access denied" with a way home', async () => {
    renderPage(<DeniedPage />, { path: '/denied' });
    expect(await screen.findByRole('heading', { name: messages.accessDenied })).toBeInTheDocument();
    expect(document.title).toBe('Access denied · LMS');
    expect(screen.getByRole('link', { name: messages.goHome })).toHaveAttribute('href', '/');
  });
});
