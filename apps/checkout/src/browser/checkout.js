// Client script for merchants' pages (served at {sdk_url}/v1/checkout.js).
//   var payments = PaymentService('pp_pub_test_...');
//   payments.embedCheckout('#checkout', { clientSecret, onComplete: function (r) {}, onError: function (e) {} });
// onComplete gets { status, session_id } for the client secret's session only. It runs in the payer's browser:
// it may show a page, never ship goods (fulfil on the webhook or a server-side GET of the session).
// The frame talks to this script by postMessage; both sides check the other's origin and window.
/* global frameHeight */ // frame-height.js, served with this script (AssetsController)
(function () {
  var FRAME_BASE = '__PP_CHECKOUT_URL_BASE__';
  var FRAME_ORIGIN = new URL(FRAME_BASE).origin;
  var SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups';
  var PUBLISHABLE_KEY = /^pp_pub_(test_)?[0-9A-Za-z]{16,128}$/;
  // How long the frame's document may stay silent: see awaitFrame below.
  var READY_TIMEOUT_MS = 15000;

  function later(fn, value) {
    if (typeof fn === 'function') setTimeout(function () { fn(value); }, 0);
  }

  function PaymentService(publishableKey) {
    return {
      embedCheckout: function (selector, options) {
        options = options || {};
        var container = typeof selector === 'string' ? document.querySelector(selector) : selector;
        if (!container) throw new Error('embedCheckout: no element matches ' + selector);
        if (typeof publishableKey !== 'string' || !PUBLISHABLE_KEY.test(publishableKey)) {
          later(options.onError, { message: 'PaymentService needs a publishable key (pp_pub_...); secret keys must never be used in the browser' });
          return { unmount: function () {} };
        }
        if (typeof options.clientSecret !== 'string' || options.clientSecret.length === 0) {
          later(options.onError, { message: 'embedCheckout needs the clientSecret of a checkout session' });
          return { unmount: function () {} };
        }

        // The session this checkout is for: a frame made to show another (its src set from the console to a session
        // already paid) must not call onComplete for this one. The client secret starts with its session's id.
        var sessionId = options.clientSecret.split('_secret_')[0];
        var iframe = document.createElement('iframe');
        // The merchant's page address (which may hold the client secret) never reaches checkout as a Referer.
        iframe.referrerPolicy = 'no-referrer';
        var query = new URLSearchParams({ pk: publishableKey, parent_origin: window.location.origin });
        if (options.locale) query.set('lang', String(options.locale).slice(0, 2));
        iframe.src = FRAME_BASE.replace(/\/+$/, '') + '/embed?' + query.toString();
        iframe.setAttribute('sandbox', SANDBOX);
        iframe.setAttribute('allow', 'clipboard-write');
        iframe.setAttribute('title', options.title || 'Checkout');
        // A first guess until the session page reports its content's height (pp:resize), which then sets it exactly,
        // lower as well as higher: a minimum here would leave blank space under a page that got shorter.
        iframe.style.cssText = 'width:100%;height:640px;border:0;display:block';

        var settled = false;
        function settle(callback, value) {
          if (!settled) { settled = true; later(callback, value); }
        }
        // A frame whose document never speaks (checkout unreachable, or an answer that refused to be framed and
        // left the frame blank) would keep the merchant's page waiting for ever: onError after READY_TIMEOUT_MS.
        // Armed for the first document's pp:ready, then again for the session page that document opens next. It
        // does not settle the checkout: a frame that was only slow (a phone on a poor network) and is then paid
        // still calls onComplete.
        var silenceTimer = null;
        function awaitFrame() {
          clearTimeout(silenceTimer);
          silenceTimer = setTimeout(function () {
            if (!settled) later(options.onError, { message: 'Checkout could not be loaded' });
          }, READY_TIMEOUT_MS);
        }
        // null: not a height (see frame-height.js), and the frame keeps the one it has.
        function resize(height) {
          if (height !== null) iframe.style.height = height + 'px';
        }
        function onMessage(event) {
          // Only our frame, only from the checkout origin: anything else is ignored.
          if (event.source !== iframe.contentWindow || event.origin !== FRAME_ORIGIN) return;
          var message = event.data || {};
          clearTimeout(silenceTimer);
          switch (message.type) {
            case 'pp:ready':
              iframe.contentWindow.postMessage({ type: 'pp:init', clientSecret: options.clientSecret }, FRAME_ORIGIN);
              awaitFrame();
              break;
            case 'pp:resize':
              resize(frameHeight.bounded(message.height));
              break;
            case 'pp:complete':
              // A frame page of the release before names no session (its script is cached up to 5 minutes, and a
              // rolling deploy serves both): taken, for one release, as it was.
              if (message.session_id !== undefined && message.session_id !== sessionId) break;
              settle(options.onComplete, { status: String(message.status), session_id: sessionId });
              break;
            case 'pp:error':
              settle(options.onError, { message: String(message.message) });
              break;
          }
        }
        awaitFrame();
        window.addEventListener('message', onMessage);
        container.appendChild(iframe);
        return {
          unmount: function () {
            clearTimeout(silenceTimer);
            window.removeEventListener('message', onMessage);
            if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
          },
        };
      },
    };
  }

  window.PaymentService = PaymentService;
})();
