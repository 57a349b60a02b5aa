/**
 * The sandbox's imitation of Razorpay Checkout (https://checkout.razorpay.com/v1/checkout.js),
 * served at /sandbox/checkout.js. It defines `window.Razorpay` with the same options,
 * `handler`, `modal.ondismiss` and `on('payment.failed')`, so the app's checkout code runs
 * unchanged in both modes. It pays through POST /sandbox/v1/subscriptions/:id/pay.
 *
 * Kept as a string so that it ships inside the server bundle. It runs under the app's CSP
 * (script-src 'self'): no inline scripts or handler attributes; inline styles are allowed.
 * Plain browser JavaScript: no backticks or `${` inside, since this is a template literal.
 */
export const CHECKOUT_SCRIPT = String.raw`/* Razorpay Checkout, imitated by the LMS payment sandbox. */
(function () {
  'use strict';
  if (window.Razorpay) return;

  var TEST_CARDS_HINT = 'Test cards: 4111 1111 1111 1111 succeeds; 4000 0000 0000 0002 is declined.';
  var open = null;

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text) node.textContent = text;
    return node;
  }

  // Reported without breaking the checkout: an app's callback must not leave the modal stuck.
  function safely(callback, argument) {
    try { callback(argument); } catch (error) { setTimeout(function () { throw error; }); }
  }

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || !options.key) throw new Error('Razorpay: options.key is required');
    if (!options.subscription_id) throw new Error('Razorpay sandbox: options.subscription_id is required');
    this.options = options;
    this.failedHandlers = [];
    this.view = null;
  }

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
    open = this;
    this.view = render(this);
    return this;
  };

  function render(checkout) {
    var options = checkout.options;
    var returnFocus = document.activeElement;
    var previousOverflow = document.body.style.overflow;
    var busy = false;

    var overlay = element('div', { 'data-razorpay-sandbox': '', style: 'position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:1rem;background:rgba(15,23,42,.6);font:16px/1.5 system-ui,sans-serif;color:#0f172a' });
    var dialog = element('div', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'rzp-sandbox-title', style: 'position:relative;box-sizing:border-box;width:100%;max-width:24rem;padding:1.5rem;border-radius:.75rem;background:#fff;box-shadow:0 20px 50px rgba(0,0,0,.3)' });
    var closeButton = element('button', { type: 'button', 'aria-label': 'Close', style: 'position:absolute;top:.5rem;right:.5rem;width:2.5rem;height:2.5rem;border:0;border-radius:.5rem;background:transparent;font-size:1.5rem;line-height:1;cursor:pointer' }, '\u00d7');
    var title = element('h2', { id: 'rzp-sandbox-title', style: 'margin:0 2rem .25rem 0;font-size:1.25rem' }, options.name || 'Payment');
    var form = element('form', { novalidate: '' });
    var label = element('label', { for: 'rzp-sandbox-card', style: 'display:block;margin-top:1rem;font-weight:600' }, 'Card number');
    var input = element('input', { id: 'rzp-sandbox-card', name: 'card_number', type: 'text', inputmode: 'numeric', autocomplete: 'cc-number', required: '', 'aria-describedby': 'rzp-sandbox-hint', style: 'box-sizing:border-box;width:100%;margin-top:.25rem;padding:.6rem .75rem;border:1px solid #64748b;border-radius:.5rem;font:inherit' });
    var hint = element('p', { id: 'rzp-sandbox-hint', style: 'margin:.5rem 0 0;font-size:.875rem;color:#475569' }, TEST_CARDS_HINT);
    var alert = element('p', { role: 'alert', style: 'margin:.75rem 0 0;min-height:1.5em;color:#b91c1c' });
    var payButton = element('button', { type: 'submit', style: 'width:100%;margin-top:.75rem;padding:.7rem;border:0;border-radius:.5rem;color:#fff;font:inherit;font-weight:600;cursor:pointer' }, 'Pay');
    payButton.style.background = (options.theme && options.theme.color) || '#2563eb';

    dialog.appendChild(closeButton);
    if (options.image) dialog.appendChild(element('img', { src: options.image, alt: '', width: '48', height: '48', style: 'display:block;margin-bottom:.5rem;border-radius:.5rem' }));
    dialog.appendChild(title);
    if (options.description) {
      dialog.appendChild(element('p', { id: 'rzp-sandbox-description', style: 'margin:0;color:#334155' }, options.description));
      dialog.setAttribute('aria-describedby', 'rzp-sandbox-description');
    }
    var payer = options.prefill && (options.prefill.email || options.prefill.name);
    if (payer) dialog.appendChild(element('p', { style: 'margin:.25rem 0 0;font-size:.875rem;color:#475569' }, 'Paying as ' + payer));
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(hint);
    form.appendChild(alert);
    form.appendChild(payButton);
    dialog.appendChild(form);
    overlay.appendChild(dialog);

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
      if (options.modal && typeof options.modal.ondismiss === 'function') safely(options.modal.ondismiss);
    }

    function setBusy(value) {
      busy = value;
      payButton.disabled = value;
      closeButton.disabled = value;
      payButton.textContent = value ? 'Paying\u2026' : 'Pay';
      dialog.setAttribute('aria-busy', value ? 'true' : 'false');
    }

    function fail(message) {
      setBusy(false);
      alert.textContent = message;
      input.focus();
    }

    closeButton.addEventListener('click', dismiss);

    overlay.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') {
        event.preventDefault();
        dismiss();
      } else if (event.key === 'Tab') {
        // Focus stays inside the dialog while it is open.
        var focusable = [closeButton, input, payButton].filter(function (node) { return !node.disabled; });
        var first = focusable[0];
        var last = focusable[focusable.length - 1];
        var inside = focusable.indexOf(document.activeElement) !== -1;
        if (event.shiftKey && (document.activeElement === first || !inside)) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
          event.preventDefault();
          first.focus();
        }
      }
    });

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (busy) return;
      setBusy(true);
      alert.textContent = '';
      fetch('/sandbox/v1/subscriptions/' + encodeURIComponent(options.subscription_id) + '/pay', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ card_number: input.value }),
      }).then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          if (response.ok) {
            setBusy(false);
            teardown();
            if (typeof options.handler === 'function') safely(options.handler, body);
            return;
          }
          var error = (body && body.error) || { code: 'SERVER_ERROR', description: 'The payment could not be completed.', source: 'NA', step: 'NA', reason: 'NA', metadata: {} };
          checkout.failedHandlers.forEach(function (handler) { safely(handler, { error: error }); });
          fail(error.description);
        });
      }, function () {
        fail('The payment server could not be reached. Try again.');
      });
    });

    document.body.appendChild(overlay);
    document.body.style.overflow = 'hidden';
    input.focus();
    return { teardown: teardown };
  }

  window.Razorpay = Razorpay;

  // A subscription's hosted page (its short_url) loads this script with data-subscription-id.
  var script = document.currentScript;
  var pageSubscription = script && script.getAttribute('data-subscription-id');
  if (pageSubscription) {
    var pageButton = document.getElementById('sandbox-pay');
    var status = document.getElementById('sandbox-status');
    pageButton.addEventListener('click', function () {
      new Razorpay({
        key: script.getAttribute('data-key') || 'sandbox',
        subscription_id: pageSubscription,
        name: 'Sandbox payment',
        description: 'Subscription ' + pageSubscription,
        handler: function (response) {
          status.textContent = 'Paid: ' + response.razorpay_payment_id + '.';
          pageButton.hidden = true;
        },
      }).open();
    });
  }
})();
`;
