import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { Toasts } from './ToastLimit';

afterEach(() => {
  act(() => toast.remove());
});

const shown = () => screen.queryAllByRole('status').map((element) => element.textContent);

describe('the toasts', () => {
  it('show one error at a time: a newer error takes the place of the one on show', async () => {
    render(<Toasts />);
    act(() => {
      toast.error('Name is missing');
    });
    expect(await screen.findByText('Name is missing')).toBeInTheDocument();
    act(() => {
      toast.error('Email is missing');
      toast.error('Message is missing');
    });
    expect(await screen.findByText('Message is missing')).toBeInTheDocument();
    expect(shown()).toEqual(['Message is missing']);
  });

  it('leave successes beside the one error, up to the spec’s 20 at once', async () => {
    render(<Toasts />);
    act(() => {
      toast.success('Saved');
      toast.error('Failed to load data');
      toast.success('Saved again');
    });
    expect(await screen.findByText('Saved again')).toBeInTheDocument();
    expect(shown().sort()).toEqual(['Failed to load data', 'Saved', 'Saved again']);
  });
});
