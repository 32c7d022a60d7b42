// The checkout page's only script (served at /assets/checkout-page.js, CSP script-src 'self').
// Settings come from data-* attributes of #checkout; text is set with textContent only.
/* global frameHeight */ // frame-height.js, served with this script (AssetsController)
(function () {
  var root = document.getElementById('checkout');
  if (!root) return;
  var data = root.dataset;
  var embedded = data.mode === 'embed' || data.mode === 'embed-final';
  // How long an expired hosted page shows its notice before going back to cancel_url.
  var EXPIRED_READING_MS = 10000;
  var parentOrigin = data.parentOrigin;

  function tellParent(message) {
    // Only to the origin the frame was opened for: the browser drops it if the parent is another origin.
    if (embedded && parentOrigin && window.parent !== window) window.parent.postMessage(message, parentOrigin);
  }

  // In a frame, the page is as tall as its content, both ways: checkout.js sets the iframe's height to each height
  // reported here. The body is measured, not the document: the document's scrollHeight is never less than the frame's
  // own height, so a frame sized by it could only grow, and kept blank space under a notice that got shorter. A report
  // waits for the content to settle (REPORT_AFTER_MS without change) and goes only when the height changed.
  // Returns what to call when the page changed its own content (for browsers without ResizeObserver, before 2020).
  var REPORT_AFTER_MS = 100;
  function followContentHeight() {
    var body = document.body;
    var timer = null;
    var reported = null;
    function report() {
      // From the document's top, so anything above the body's box counts too (body.embedded is its own block
      // formatting context, so its children's margins are inside it).
      var height = frameHeight.bounded(body.getBoundingClientRect().bottom + window.scrollY);
      if (height === null || height === reported) return;
      reported = height;
      tellParent({ type: 'pp:resize', height: height });
    }
    function reportSoon() {
      clearTimeout(timer);
      timer = setTimeout(report, REPORT_AFTER_MS);
    }
    if (typeof ResizeObserver === 'function') new ResizeObserver(reportSoon).observe(body);
    else window.addEventListener('resize', reportSoon);
    reportSoon();
    return reportSoon;
  }

  if (data.mode === 'embed-final') {
    // A completed or expired session, or an error, shown in the frame: tell the merchant's page at once.
    if (data.finalStatus === 'COMPLETED') tellParent({ type: 'pp:complete', status: 'COMPLETED', session_id: data.sessionId });
    else tellParent({ type: 'pp:error', message: data.errorText || 'Checkout could not be opened' });
    // Usually much shorter than the checkout page that was in the frame before: the frame shrinks to it.
    followContentHeight();
    return;
  }
  if (data.mode !== 'hosted' && data.mode !== 'embed') return;

  var live = document.getElementById('live-status');
  var contentChanged = embedded ? followContentHeight() : function () {};
  var finished = false;
  var ticker = null;

  // The checkout has settled: COMPLETED, EXPIRED, or GONE (the checkout's own 404: the session no longer exists).
  function finish(outcome) {
    if (finished) return;
    finished = true;
    // The time left means nothing now: left running, the countdown would go on ticking on a paid page (the frame stays).
    clearInterval(ticker);
    var done = outcome === 'COMPLETED';
    live.textContent = done ? data.textCompleted : outcome === 'EXPIRED' ? data.textExpired : data.textNotFound;
    live.className = 'live-status ' + (done ? 'done' : 'expired');
    if (embedded) {
      // The notice that replaced the status may be longer (the expired one is) or shorter: the frame follows it.
      contentChanged();
      if (done) tellParent({ type: 'pp:complete', status: 'COMPLETED', session_id: data.sessionId });
      else tellParent({ type: 'pp:error', message: outcome === 'EXPIRED' ? 'Checkout session expired' : 'Checkout session not found' });
    } else if (done) {
      window.location.replace(data.successUrl);
    } else if (outcome === 'EXPIRED') {
      // Expired: back to cancel_url, but not before the payer has read the notice. A transfer sent just before
      // expiry still arrives (and goes to review), so they must learn not to pay again; the cancel link goes at once.
      setTimeout(function () { window.location.replace(data.cancelUrl); }, EXPIRED_READING_MS);
    }
    // GONE, hosted: no page to send the payer to; the notice says to go back to the merchant, and the cancel link stays.
  }

  // Copy the memo with one click.
  var copyButton = document.getElementById('copy-memo');
  var copyStatus = document.getElementById('copy-status');
  if (copyButton) {
    copyButton.addEventListener('click', function () {
      var text = copyButton.getAttribute('data-copy') || '';
      var write = navigator.clipboard && navigator.clipboard.writeText ? navigator.clipboard.writeText(text) : Promise.reject(new Error('no clipboard'));
      write.then(
        function () { copyStatus.textContent = data.textCopied; },
        function () { copyStatus.textContent = data.textCopyFailed; },
      );
    });
  }

  // Countdown, corrected for the difference between this device's clock and the server's.
  var skew = Date.parse(data.serverNow) - Date.now();
  var deadline = Date.parse(data.expiresAt);
  var countdown = document.getElementById('countdown');
  var deadlinePolled = false;

  // A deadline moved later (the dashboard's preview checkout reopened while this page was open), as a poll reads it.
  function adoptDeadline(expiresAt) {
    var later = typeof expiresAt === 'string' ? Date.parse(expiresAt) : NaN;
    if (!(later > deadline)) return;
    deadline = later;
    deadlinePolled = false; // ask again at the new deadline
    tick();
  }

  function tick() {
    var left = Math.max(0, Math.floor((deadline - (Date.now() + skew)) / 1000));
    var mm = String(Math.floor(left / 60));
    var ss = String(left % 60);
    countdown.textContent = (mm.length < 2 ? '0' + mm : mm) + ':' + (ss.length < 2 ? '0' + ss : ss);
    if (left === 0 && !deadlinePolled) {
      deadlinePolled = true; // once: ask at the deadline rather than wait for the next poll
      poll();
    }
  }
  ticker = setInterval(tick, 1000);

  // Live status: poll the status endpoint of this app (same origin), once a second. Any failure (a 429 from the
  // budget that payers behind one address share, a 5xx, a network error) doubles the wait, up to a cap, and a
  // Retry-After can only lengthen it: a crowd or an outage slows the pages down instead of being hammered by them.
  // Back to once a second after a success. A 404 cannot heal (the session is gone): polling stops, and the page says so.
  var POLL_MS = 1000;
  var MAX_POLL_MS = 30000;
  var MAX_RETRY_AFTER_MS = 300000; // a garbled Retry-After must not stop the page following the payment
  var pollDelay = POLL_MS;
  var pollTimer = null;
  var polling = false;

  function retryAfterMs(response) {
    var value = response.headers.get('retry-after');
    if (!value) return 0;
    var ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - Date.now();
    return ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : 0;
  }

  function backOff(minimumMs) {
    pollDelay = Math.max(minimumMs, Math.min(2 * pollDelay, MAX_POLL_MS));
  }

  function poll() {
    if (finished || polling) return;
    polling = true;
    clearTimeout(pollTimer);
    fetch(data.statusUrl, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'omit' })
      .then(function (response) {
        if (response.ok) {
          pollDelay = POLL_MS;
          return response.json();
        }
        // The checkout's own 404 (it names the request) says the session is gone for good; a 404 from something in
        // front of it (a proxy mid-deploy) does not, and is waited out like any failure.
        if (response.status === 404 && response.headers.get('x-request-id')) finish('GONE');
        else backOff(retryAfterMs(response));
        return null;
      })
      .then(function (body) {
        if (!body) return;
        if (body.status === 'COMPLETED' || body.status === 'EXPIRED') finish(body.status);
        else adoptDeadline(body.expires_at);
      })
      .catch(function () { backOff(0); }) // a network error, or an answer that is not JSON
      .then(function () {
        polling = false;
        if (!finished) pollTimer = setTimeout(poll, pollDelay);
      });
  }
  pollTimer = setTimeout(poll, POLL_MS);
})();
