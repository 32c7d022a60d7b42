// The height rule of the embedded checkout frame, one for both ends of its pp:resize message: the session page in
// the frame (checkout-page.js), which reports its content's height, and the client script on the merchant's page
// (checkout.js), which sizes the iframe to it. AssetsController serves this file inside both scripts (so the name
// stays local to each), and frame-height.unit.spec.ts evaluates it alone.
/* exported frameHeight */
var frameHeight = (function () {
  // Taller than any checkout page at any width (the bank list on a narrow phone, zoomed), yet bounded: a broken or
  // hostile document in the frame must not stretch the merchant's page without end. Past it the frame scrolls inside.
  var MAX_PX = 5000;

  // The iframe height, in whole CSS pixels, for a content height measured or reported; null for anything that is not
  // one (a message's height is whatever its sender put there), so the frame keeps the height it has.
  function bounded(height) {
    if (typeof height !== 'number' || !isFinite(height) || height <= 0) return null;
    return Math.min(Math.ceil(height), MAX_PX);
  }

  return { MAX_PX: MAX_PX, bounded: bounded };
})();
