(function (w) {
  'use strict';
  var c = /*CONFIG*/;
  var d = w.document;
  var me = d.currentScript;
  if (!me) {
    var all = d.getElementsByTagName('script');
    for (var i = all.length - 1; i >= 0; i--) if (all[i].src.indexOf('/conf/' + c.apid + '.js') >= 0) { me = all[i]; break; }
  }
  if (!me) return;
  var src = new URL(me.src, w.location.href);
  var args = new URLSearchParams(src.hash.slice(1));
  var name = args.get('name') || '', ns = args.get('ns') || 'NOLBUNDLE';
  var N = w[ns] = w[ns] || {};
  c.origin = src.origin;
  N.configs = N.configs || {};
  N.configs[c.apid] = c;

  var instance = N[name];
  if (instance && !instance.amTimed) {
    instance.amTimed = true;
    var queue = instance.q = instance.q || [], now = Date.now();
    for (var j = 0; j < queue.length; j++) queue[j][5] = queue[j][5] || now;
    instance.ggPM = function () {
      var call = Array.prototype.slice.call(arguments, 0, 5);
      call[5] = Date.now();
      (instance.q = instance.q || []).push(call);
    };
  }

  function start() {
    w.AppMeterBrowser.install(N);
    N.getInstance(name).ggInitialize(c);
  }
  if (w.AppMeterBrowser) return start();
  (N.amWaiting = N.amWaiting || []).push(start);
  if (N.amLoading) return;
  N.amLoading = true;
  var tries = 0;
  (function load() {
    var s = d.createElement('script');
    s.src = c.origin + c.bundle;
    s.integrity = c.bundleIntegrity;
    s.crossOrigin = 'anonymous';
    s.async = true;
    s.onload = function () {
      var waiting = N.amWaiting || [];
      N.amWaiting = [];
      for (var k = 0; k < waiting.length; k++) waiting[k]();
    };
    s.onerror = function () {
      s.parentNode && s.parentNode.removeChild(s);
      if (++tries < 5) w.setTimeout(load, 2000);
      else if (w.console) w.console.error('AppMeter: the SDK bundle ' + s.src + ' did not load');
    };
    (d.head || d.documentElement).appendChild(s);
  })();
})(window);
