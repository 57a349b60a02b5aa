/* Razorpay Checkout, imitated by the LMS payment sandbox. */
// Served as it is at /sandbox/checkout.js, in place of https://checkout.razorpay.com/v1/checkout.js:
// `window.Razorpay` takes the same options, `handler`, `modal.ondismiss` and `on('payment.failed')`,
// so the app's checkout code runs unchanged in both modes. It pays through
// POST /sandbox/v1/subscriptions/:id/pay. It runs under the app's CSP (script-src 'self'): no
// inline scripts or handler attributes; inline styles are allowed. Types are checked from JSDoc
// (tsconfig.json here), so no build step stands between this file and the browser.
// One file over 300 lines: it stands in for Razorpay's single script, loaded from one URL with nothing to join parts.
(function () {
  'use strict';
  if (window.Razorpay) return;

  const TEST_CARDS_HINT =
    'Test cards: 4111 1111 1111 1111 and 5267 3181 8797 5449 succeed; 4000 0000 0000 0002 is declined. Any future expiry and any 3-digit CVC.';
  /** @type {Razorpay | null} */
  let open = null;

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, string>} [attributes]
   * @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    const given = attributes || {};
    Object.keys(given).forEach((name) => node.setAttribute(name, /** @type {string} */ (given[name])));
    if (text) node.textContent = text;
    return node;
  }

  /**
   * Reported without breaking the checkout: an app's callback must not leave the modal stuck.
   * @template T
   * @param {(argument: T) => void} callback
   * @param {T} argument
   */
  function safely(callback, argument) {
    try {
      callback(argument);
    } catch (error) {
      setTimeout(() => {
        throw error;
      });
    }
  }

  /**
   * @constructor
   * @param {RazorpayCheckoutOptions} options
   */
  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || !options.key) throw new Error('Razorpay: options.key is required');
    if (!options.subscription_id) throw new Error('Razorpay sandbox: options.subscription_id is required');
    /** @type {RazorpayCheckoutOptions} */
    this.options = options;
    /** @type {((response: { error: RazorpayPaymentError }) => void)[]} */
    this.failedHandlers = [];
    /** @type {{ teardown: () => void } | null} */
    this.view = null;
  }

  /**
   * @param {string} event
   * @param {(response: { error: RazorpayPaymentError }) => void} handler
   */
  Razorpay.prototype.on = function (event, handler) {
    if (event === 'payment.failed' && typeof handler === 'function') this.failedHandlers.push(handler);
    return this;
  };

  Razorpay.prototype.close = function () {
    if (this.view) this.view.teardown();
  };

  Razorpay.prototype.open = function () {
    if (this.view) return this;
    if (open) open.close();
    this.view = render(this);
    return this;
  };

  // ── The card form's checks, as Checkout makes them before it sends anything ──

  const MESSAGES = {
    cardMissing: 'Enter the card number.',
    cardShort: 'This card number is too short: a card number has 12 to 19 digits.',
    cardLuhn: 'This card number is not valid: check the digits.',
    expiryMissing: 'Enter the expiry date as MM/YY.',
    expiryMonth: 'Enter a month from 01 to 12.',
    expiryPast: 'This card has expired.',
    cvc: 'Enter the 3 or 4 digit CVC.',
  };

  /** @param {string} text */
  const digitsOf = (text) => String(text || '').replace(/\D/g, '');
  /** @param {string} digits */
  const groupInFours = (digits) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

  /**
   * The Luhn check every card number passes (ISO/IEC 7812).
   * @param {string} digits
   */
  function passesLuhn(digits) {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let digit = Number(digits.charAt(digits.length - 1 - i));
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    return sum % 10 === 0;
  }

  /** @param {string} value */
  function cardProblem(value) {
    const digits = digitsOf(value);
    if (!digits) return MESSAGES.cardMissing;
    if (digits.length < 12) return MESSAGES.cardShort;
    return passesLuhn(digits) ? '' : MESSAGES.cardLuhn;
  }

  /**
   * A card is good until the end of its expiry month.
   * @param {string} value
   * @param {Date} now
   */
  function expiryProblem(value, now) {
    const match = /^(\d{2})\/(\d{2})$/.exec(String(value || '').replace(/\s/g, ''));
    if (!match) return MESSAGES.expiryMissing;
    const month = Number(match[1]);
    if (month < 1 || month > 12) return MESSAGES.expiryMonth;
    const year = 2000 + Number(match[2]);
    return year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1 ? MESSAGES.expiryPast : '';
  }

  /** @param {string} value */
  function cvcProblem(value) {
    return /^\d{3,4}$/.test(String(value || '').replace(/\s/g, '')) ? '' : MESSAGES.cvc;
  }

  /**
   * "4/" is April; the slash comes once the month is whole.
   * @param {string} raw
   */
  function formatExpiry(raw) {
    const text = /^\d\D/.test(raw) ? '0' + raw : raw;
    const digits = digitsOf(text).slice(0, 4);
    return digits.length > 2 || (digits.length === 2 && /^\d{2}\D/.test(text)) ? digits.slice(0, 2) + '/' + digits.slice(2) : digits;
  }

  /**
   * @param {number} paise
   * @param {string} currency
   */
  function money(paise, currency) {
    const whole = paise % 100 === 0;
    try {
      return new Intl.NumberFormat('en-IN', {
        style: 'currency',
        currency: currency,
        minimumFractionDigits: whole ? 0 : 2,
        maximumFractionDigits: whole ? 0 : 2,
      }).format(paise / 100);
    } catch {
      return currency + ' ' + (paise / 100).toFixed(whole ? 0 : 2);
    }
  }

  const INPUT_STYLE =
    'box-sizing:border-box;width:100%;margin-top:.25rem;padding:.6rem .75rem;border:1px solid #64748b;border-radius:.5rem;font:inherit;color:inherit;background:#fff';
  const LABEL_STYLE = 'display:block;margin-top:1rem;font-weight:600';
  const ERROR_STYLE = 'margin:.25rem 0 0;font-size:.875rem;color:#b91c1c';

  /**
   * @typedef {object} Field
   * @property {HTMLDivElement} wrapper
   * @property {HTMLInputElement} input
   * @property {boolean} touched
   * @property {(problem: string) => void} show
   */

  /**
   * A labelled input with its own message, which it names in aria-describedby.
   * @param {string} id
   * @param {string} labelText
   * @param {Record<string, string>} attributes
   * @param {string} [hintId]
   * @returns {Field}
   */
  function field(id, labelText, attributes, hintId) {
    const wrapper = element('div', { style: 'min-width:0' });
    const label = element('label', { for: id, style: LABEL_STYLE }, labelText);
    const input = element('input', attributes);
    const message = element('p', { id: id + '-error', 'aria-live': 'polite', style: ERROR_STYLE });
    input.setAttribute('id', id);
    input.setAttribute('type', 'text');
    input.setAttribute('required', '');
    input.setAttribute('aria-invalid', 'false');
    input.setAttribute('aria-describedby', id + '-error' + (hintId ? ' ' + hintId : ''));
    input.setAttribute('style', INPUT_STYLE);
    wrapper.appendChild(label);
    wrapper.appendChild(input);
    wrapper.appendChild(message);
    return {
      wrapper: wrapper,
      input: input,
      touched: false,
      show: function (problem) {
        message.textContent = problem;
        input.setAttribute('aria-invalid', problem ? 'true' : 'false');
        input.style.borderColor = problem ? '#b91c1c' : '#64748b';
      },
    };
  }

  /**
   * What GET /sandbox/v1/subscriptions/:id/checkout answers: the amount this payment takes.
   * @typedef {{ amount: number, currency: string, authorisation: boolean, plan_amount: number, start_at: number | null }} CheckoutSummary
   */

  /**
   * The modal: the card form, its checks, and the payment. `checkout` becomes the one open.
   * @param {Razorpay} checkout
   */
  function render(checkout) {
    open = checkout;
    const options = checkout.options;
    const returnFocus = /** @type {HTMLElement | null} */ (document.activeElement);
    const previousOverflow = document.body.style.overflow;
    let busy = false;
    let payLabel = 'Pay';

    const overlay = element('div', {
      'data-razorpay-sandbox': '',
      style:
        'position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:1rem;background:rgba(15,23,42,.6);font:16px/1.5 system-ui,sans-serif;color:#0f172a',
    });
    const dialog = element('div', {
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'rzp-sandbox-title',
      style:
        'position:relative;box-sizing:border-box;width:100%;max-width:24rem;max-height:100%;overflow:auto;padding:1.5rem;border-radius:.75rem;background:#fff;box-shadow:0 20px 50px rgba(0,0,0,.3)',
    });
    const closeButton = element(
      'button',
      {
        type: 'button',
        'aria-label': 'Close',
        style:
          'position:absolute;top:.5rem;right:.5rem;width:2.5rem;height:2.5rem;border:0;border-radius:.5rem;background:transparent;color:inherit;font-size:1.5rem;line-height:1;cursor:pointer',
      },
      '\u00d7',
    );
    const title = element('h2', { id: 'rzp-sandbox-title', style: 'margin:0 2rem .25rem 0;font-size:1.25rem' }, options.name || 'Payment');
    const form = element('form', { novalidate: '' });
    const card = field(
      'rzp-sandbox-card',
      'Card number',
      { name: 'card_number', inputmode: 'numeric', autocomplete: 'cc-number', maxlength: '23', placeholder: '1234 1234 1234 1234' },
      'rzp-sandbox-hint',
    );
    const hint = element('p', { id: 'rzp-sandbox-hint', style: 'margin:.25rem 0 0;font-size:.875rem;color:#475569' }, TEST_CARDS_HINT);
    // Side by side where both labels fit on one line; one above the other on a phone.
    const row = element('div', { style: 'display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:0 1rem' });
    const expiry = field('rzp-sandbox-expiry', 'Expiry (MM/YY)', {
      name: 'card_expiry',
      inputmode: 'numeric',
      autocomplete: 'cc-exp',
      maxlength: '5',
      placeholder: 'MM/YY',
    });
    const cvc = field('rzp-sandbox-cvc', 'CVC', { name: 'card_cvc', inputmode: 'numeric', autocomplete: 'cc-csc', maxlength: '4', placeholder: '123' });
    const note = element('p', { id: 'rzp-sandbox-note', style: 'margin:.75rem 0 0;font-size:.875rem;color:#475569' });
    const alert = element('p', { role: 'alert', style: 'margin:.75rem 0 0;min-height:1.5em;color:#b91c1c' });
    const payButton = element(
      'button',
      {
        type: 'submit',
        style: 'width:100%;margin-top:.75rem;padding:.7rem;border:0;border-radius:.5rem;color:#fff;font:inherit;font-weight:600;cursor:pointer',
      },
      payLabel,
    );
    payButton.style.background = (options.theme && options.theme.color) || '#2563eb';
    note.hidden = true;
    const fields = [card, expiry, cvc];

    dialog.appendChild(closeButton);
    if (options.image)
      dialog.appendChild(
        element('img', { src: options.image, alt: '', width: '48', height: '48', style: 'display:block;margin-bottom:.5rem;border-radius:.5rem' }),
      );
    dialog.appendChild(title);
    if (options.description) {
      dialog.appendChild(element('p', { id: 'rzp-sandbox-description', style: 'margin:0;color:#334155' }, options.description));
      dialog.setAttribute('aria-describedby', 'rzp-sandbox-description');
    }
    const payer = options.prefill && (options.prefill.email || options.prefill.name);
    if (payer) dialog.appendChild(element('p', { style: 'margin:.25rem 0 0;font-size:.875rem;color:#475569;overflow-wrap:anywhere' }, 'Paying as ' + payer));
    card.wrapper.appendChild(hint);
    form.appendChild(card.wrapper);
    row.appendChild(expiry.wrapper);
    row.appendChild(cvc.wrapper);
    form.appendChild(row);
    form.appendChild(note);
    form.appendChild(alert);
    form.appendChild(payButton);
    dialog.appendChild(form);
    overlay.appendChild(dialog);

    /** @param {Field} which */
    function problemOf(which) {
      if (which === card) return cardProblem(card.input.value);
      if (which === expiry) return expiryProblem(expiry.input.value, new Date());
      return cvcProblem(cvc.input.value);
    }

    /**
     * A field speaks up once it has been left (or Pay pressed), the card number also as soon as it is long
     * enough to judge; from then on it is judged at every keystroke.
     * @param {Field} which
     * @param {boolean} force
     */
    function check(which, force) {
      const problem = problemOf(which);
      const judged = which === card && digitsOf(card.input.value).length >= 16;
      if (force || which.touched || (judged && problem)) {
        which.show(problem);
        if (problem) which.touched = true;
      } else if (!problem) which.show('');
      return problem;
    }

    let lastCardDigits = '';
    card.input.addEventListener('input', (event) => {
      const input = card.input;
      const value = input.value;
      const caret = typeof input.selectionStart === 'number' ? input.selectionStart : value.length;
      let before = digitsOf(value.slice(0, caret)).length;
      let digits = digitsOf(value);
      // Backspace over the space between groups takes the digit before it, as people expect.
      if (event && /** @type {InputEvent} */ (event).inputType === 'deleteContentBackward' && digits === lastCardDigits && before > 0) {
        digits = digits.slice(0, before - 1) + digits.slice(before);
        before -= 1;
      }
      digits = digits.slice(0, 19);
      const formatted = groupInFours(digits);
      input.value = formatted;
      lastCardDigits = digits;
      let position = 0;
      for (let seen = 0; position < formatted.length && seen < before; position++) {
        if (formatted.charAt(position) !== ' ') seen++;
      }
      if (document.activeElement === input && typeof input.setSelectionRange === 'function') input.setSelectionRange(position, position);
      check(card, false);
    });
    expiry.input.addEventListener('input', () => {
      const formatted = formatExpiry(expiry.input.value);
      if (formatted !== expiry.input.value) expiry.input.value = formatted;
      check(expiry, false);
    });
    cvc.input.addEventListener('input', () => {
      const digits = digitsOf(cvc.input.value).slice(0, 4);
      if (digits !== cvc.input.value) cvc.input.value = digits;
      check(cvc, false);
    });
    fields.forEach((which) => {
      which.input.addEventListener('blur', () => {
        if (which.input.value) which.touched = true;
        check(which, false);
      });
    });

    // Checkout learns the amount from the subscription, as Razorpay's does: no amount is passed for subscriptions.
    fetch('/sandbox/v1/subscriptions/' + encodeURIComponent(options.subscription_id) + '/checkout', { credentials: 'same-origin' })
      .then((response) => (response.ok ? response.json() : null))
      .then((/** @type {CheckoutSummary | null} */ summary) => {
        if (!summary || typeof summary.amount !== 'number' || !checkout.view) return;
        payLabel = 'Pay ' + money(summary.amount, summary.currency);
        if (!busy) payButton.textContent = payLabel;
        if (summary.authorisation) {
          const first = summary.start_at
            ? new Date(summary.start_at * 1000).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' })
            : '';
          note.textContent =
            money(summary.amount, summary.currency) +
            ' checks your card and is refunded at once. ' +
            money(summary.plan_amount, summary.currency) +
            ' is charged' +
            (first ? ' from ' + first : ' later') +
            '.';
          note.hidden = false;
        }
      })
      .catch(() => {
        // The button still says Pay; paying does not depend on it.
      });

    function teardown() {
      overlay.remove();
      document.body.style.overflow = previousOverflow;
      checkout.view = null;
      if (open === checkout) open = null;
      if (returnFocus && typeof returnFocus.focus === 'function') returnFocus.focus();
    }

    function dismiss() {
      if (busy) return;
      teardown();
      const ondismiss = options.modal && options.modal.ondismiss;
      if (typeof ondismiss === 'function') safely(ondismiss, undefined);
    }

    /** @param {boolean} value */
    function setBusy(value) {
      busy = value;
      payButton.disabled = value;
      closeButton.disabled = value;
      fields.forEach((which) => {
        which.input.readOnly = value;
      });
      payButton.textContent = value ? 'Paying\u2026' : payLabel;
      dialog.setAttribute('aria-busy', value ? 'true' : 'false');
    }

    /** @param {string} message */
    function fail(message) {
      setBusy(false);
      alert.textContent = message;
      card.input.focus();
    }

    closeButton.addEventListener('click', dismiss);

    overlay.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        dismiss();
      } else if (event.key === 'Tab') {
        // Focus stays inside the dialog while it is open.
        const focusable = [closeButton, card.input, expiry.input, cvc.input, payButton].filter((node) => !node.disabled);
        const first = /** @type {HTMLElement} */ (focusable[0]);
        const last = /** @type {HTMLElement} */ (focusable[focusable.length - 1]);
        const inside = focusable.indexOf(/** @type {HTMLInputElement} */ (document.activeElement)) !== -1;
        if (event.shiftKey && (document.activeElement === first || !inside)) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
          event.preventDefault();
          first.focus();
        }
      }
    });

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (busy) return;
      alert.textContent = '';
      // Nothing is sent until every field is right; the first one that is not gets the focus.
      const wrong = fields.filter((which) => {
        which.touched = true;
        return check(which, true);
      });
      if (wrong[0]) {
        wrong[0].input.focus();
        return;
      }
      setBusy(true);
      fetch('/sandbox/v1/subscriptions/' + encodeURIComponent(options.subscription_id) + '/pay', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_number: groupInFours(digitsOf(card.input.value)) }),
      }).then(
        (response) =>
          response
            .json()
            .catch(() => ({}))
            .then((body) => {
              if (response.ok) {
                setBusy(false);
                teardown();
                if (typeof options.handler === 'function') safely(options.handler, body);
                return;
              }
              /** @type {RazorpayPaymentError} */
              const error = (body && body.error) || {
                code: 'SERVER_ERROR',
                description: 'The payment could not be completed.',
                source: 'NA',
                step: 'NA',
                reason: 'NA',
                metadata: {},
              };
              checkout.failedHandlers.forEach((handler) => safely(handler, { error: error }));
              fail(error.description);
            }),
        () => {
          fail('The payment server could not be reached. Try again.');
        },
      );
    });

    document.body.appendChild(overlay);
    document.body.style.overflow = 'hidden';
    card.input.focus();
    return { teardown: teardown };
  }

  window.Razorpay = Razorpay;

  // A subscription's hosted page (its short_url) loads this script with data-subscription-id.
  const script = document.currentScript;
  const pageSubscription = script && script.getAttribute('data-subscription-id');
  if (script && pageSubscription) {
    const pageButton = /** @type {HTMLButtonElement} */ (document.getElementById('sandbox-pay'));
    const status = /** @type {HTMLElement} */ (document.getElementById('sandbox-status'));
    pageButton.addEventListener('click', () => {
      new Razorpay({
        key: script.getAttribute('data-key') || 'sandbox',
        subscription_id: pageSubscription,
        name: script.getAttribute('data-name') || 'Sandbox payment',
        description: 'Subscription ' + pageSubscription,
        handler: (response) => {
          status.textContent = 'Paid: ' + response.razorpay_payment_id + '.';
          pageButton.hidden = true;
        },
      }).open();
    });
  }
})();
