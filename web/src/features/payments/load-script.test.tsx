import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import type { RazorpayConstructor } from './load-script';

const SRC = '/sandbox/checkout.js';
const scripts = () => document.querySelectorAll(`script[src="${SRC}"]`);

/** A fresh module per test: the loader remembers a load in progress. */
async function freshLoader() {
  vi.resetModules();
  return (await import('./load-script')).loadCheckoutScript;
}

beforeEach(() => {
  delete window.Razorpay;
});

afterEach(() => {
  delete window.Razorpay;
  scripts().forEach((script) => script.remove());
});

describe('loadCheckoutScript', () => {
  it('adds one script tag however often it is called, and resolves with window.Razorpay once loaded', async () => {
    const load = await freshLoader();
    const first = load(SRC);
    const second = load(SRC);
    expect(scripts()).toHaveLength(1);

    const Razorpay = function Razorpay() {} as unknown as RazorpayConstructor;
    window.Razorpay = Razorpay;
    scripts()[0]!.dispatchEvent(new Event('load'));

    await expect(first).resolves.toBe(Razorpay);
    await expect(second).resolves.toBe(Razorpay);
  });

  it("rejects with 'Something went wrong' when the script fails to load, and tries afresh next time", async () => {
    const load = await freshLoader();
    const attempt = load(SRC);
    scripts()[0]!.dispatchEvent(new Event('error'));

    await expect(attempt).rejects.toThrow(messages.somethingWentWrong);
    expect(scripts()).toHaveLength(0);
    void load(SRC);
    expect(scripts()).toHaveLength(1);
  });

  it('rejects when the script loads but defines no Checkout', async () => {
    const load = await freshLoader();
    const attempt = load(SRC);
    scripts()[0]!.dispatchEvent(new Event('load'));

    await expect(attempt).rejects.toThrow(messages.somethingWentWrong);
  });

  it('adds no script when Checkout is already there', async () => {
    const load = await freshLoader();
    const Razorpay = function Razorpay() {} as unknown as RazorpayConstructor;
    window.Razorpay = Razorpay;

    await expect(load(SRC)).resolves.toBe(Razorpay);
    expect(scripts()).toHaveLength(0);
  });
});
