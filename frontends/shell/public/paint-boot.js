// The painted landing page's loader: the server sends it in place of the app's entry script (its address
// in data-entry), so that the app's scripts are asked for only once the server's page has shown and the
// visitor sees the content first. See backend/src/http/first-paint.ts.
/* global document, requestAnimationFrame */
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  // The scripts the app asks for next (a member's page lists them): fetched beside its entry, not one
  // after another.
  var preload = [];
  try {
    preload = JSON.parse(script.getAttribute('data-preload') || '[]');
  } catch (error) {
    preload = [];
  }
  function load() {
    for (var i = 0; i < preload.length; i++) {
      var link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'script';
      link.href = preload[i];
      document.head.appendChild(link);
    }
    var app = document.createElement('script');
    app.src = entry;
    document.head.appendChild(app);
  }
  // A hidden tab shows no frame (and runs no requestAnimationFrame): load at once there.
  if (document.visibilityState === 'hidden') load();
  else
    requestAnimationFrame(function () {
      setTimeout(load, 0);
    });
})();
