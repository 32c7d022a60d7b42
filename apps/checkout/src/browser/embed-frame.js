// First document of the embedded checkout frame (served at /assets/embed-frame.js).
// Protocol with the client script on the merchant's page (PRODUCT-RULES §4.8):
//   frame → parent  { type: 'pp:ready' }                      once loaded
//   parent → frame  { type: 'pp:init', clientSecret }          accepted only from the parent window at parent_origin
//   frame → parent  { type: 'pp:error', message }              wrong key, secret or mode
// then the frame opens the session page, which sends pp:complete / pp:error, and
//   frame → parent  { type: 'pp:resize', height }              its content's height, each time it changes, up or down
//                                                              (checkout.js sizes the iframe to it; frame-height.js bounds it)
(function () {
  var root = document.getElementById('frame');
  if (!root || window.parent === window) return;
  var parentOrigin = root.dataset.parentOrigin;
  var publishableKey = root.dataset.publishableKey;
  var lang = root.dataset.lang;
  var status = document.getElementById('frame-status');
  var started = false;

  function tellParent(message) {
    window.parent.postMessage(message, parentOrigin);
  }

  function fail(message) {
    status.textContent = message;
    tellParent({ type: 'pp:error', message: message });
  }

  window.addEventListener('message', function (event) {
    // Strict: only the window that framed us, only from the origin it was opened for.
    if (event.source !== window.parent || event.origin !== parentOrigin) return;
    var message = event.data;
    if (!message || message.type !== 'pp:init' || typeof message.clientSecret !== 'string' || started) return;
    started = true;
    fetch('/embed/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ publishable_key: publishableKey, client_secret: message.clientSecret, parent_origin: parentOrigin }),
      credentials: 'omit',
    })
      .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
      .then(function (result) {
        if (!result.ok) return fail(result.body && result.body.error ? result.body.error : 'Checkout could not be opened');
        var query = new URLSearchParams({ parent_origin: parentOrigin, lang: lang });
        window.location.replace('/embed/sessions/' + encodeURIComponent(result.body.session_id) + '?' + query.toString());
      })
      .catch(function () { fail('Checkout could not be reached'); });
  });

  tellParent({ type: 'pp:ready' });
})();
