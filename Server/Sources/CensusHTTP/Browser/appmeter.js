(function (w) {
  'use strict';
  if (w.AppMeterBrowser) return;
  var enc = new TextEncoder(), dec = new TextDecoder();
  var engines = {};

  function Engine(x) { this.x = x; }
  Engine.prototype.put = function (text) {
    var room = text.length * 3 + 1, view = this.v;
    if (!view || view.byteLength < room) {
      view = new Uint8Array(this.x.memory.buffer, this.x.am_alloc(room), room);
      this.v = room <= 65536 ? view : null;
    }
    return [view.byteOffset, enc.encodeInto(text, view).written];
  };
  Engine.prototype.out = function (length) {
    if (length <= 0) return '';
    var bytes = new Uint8Array(this.x.memory.buffer, this.x.am_output(), length);
    if (length > 4096) return dec.decode(bytes.slice());
    for (var i = 0; i < length; i++) if (bytes[i] > 127) return dec.decode(bytes.slice());
    return String.fromCharCode.apply(null, bytes);
  };
  Engine.prototype.create = function (settings, time) {
    var a = this.put(settings), handle = this.x.am_create(a[0], a[1], time);
    return [handle, this.out(this.x.am_output_length())];
  };
  Engine.prototype.call = function (handle, text, time) {
    var a = this.put(text);
    return this.out(this.x.am_call(handle, a[0], a[1], time));
  };
  Engine.prototype.playhead = function (handle, position, time) { return this.out(this.x.am_playhead(handle, position, time)); };
  Engine.prototype.wake = function (handle, time) { return this.out(this.x.am_wake(handle, time)); };
  Engine.prototype.creditQuery = function (query, id, seconds, created) {
    var a = this.put(query + '\t' + id);
    return this.out(this.x.am_credit_query(a[0], a[1], seconds, created));
  };
  Engine.prototype.outcome = function (handle, status, retryAfter) {
    return this.out(this.x.am_outcome(handle, status, retryAfter, Math.random())).split(' ');
  };
  Engine.prototype.sendQuery = function (query, time, recovered, prefix) {
    var a = this.put(query);
    return this.out(this.x.am_send_query(a[0], a[1], time, recovered ? 1 : 0, prefix));
  };

  function loadEngine(c) {
    var url = c.origin + c.engine;
    if (engines[url]) return engines[url];
    var memory = null;
    var ignored = function () { return 0; };
    var imports = { wasi_snapshot_preview1: {
      random_get: function (at, length) { w.crypto.getRandomValues(new Uint8Array(memory.buffer, at, length)); return 0; },
      fd_write: ignored, fd_close: ignored, fd_seek: ignored, proc_exit: ignored
    } };
    engines[url] = w.fetch(url, { integrity: c.engineIntegrity, credentials: 'omit' })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.arrayBuffer(); })
      .then(function (bytes) { return WebAssembly.instantiate(bytes, imports); })
      .then(function (m) { memory = m.instance.exports.memory; return new Engine(m.instance.exports); });
    return engines[url];
  }

  function store(key, value) {
    try { if (value === undefined) w.localStorage.removeItem(key); else w.localStorage.setItem(key, JSON.stringify(value)); }
    catch (e) { }
  }
  function stored(key) {
    try { return JSON.parse(w.localStorage.getItem(key) || 'null'); } catch (e) { return null; }
  }
  function randomHex(bytes) {
    var b = w.crypto.getRandomValues(new Uint8Array(bytes)), s = '';
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
    return s;
  }
  function randomInteger() {
    var b = w.crypto.getRandomValues(new Uint32Array(2));
    return (b[0] & 0x1fffff) * 4294967296 + b[1];
  }
  function metadataQuery(object) {
    var parts = [];
    if (object && typeof object === 'object') {
      for (var k in object) {
        if (!Object.prototype.hasOwnProperty.call(object, k)) continue;
        var v = object[k];
        if (v === null || v === undefined || typeof v === 'object' || typeof v === 'function') continue;
        parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(String(v)));
      }
    }
    return parts.join('&');
  }

  function Meter(engine, name, c, g, time) {
    var self = this;
    this.e = engine;
    this.c = c;
    this.debug = !!g.nol_sdkDebug;
    var prefix = 'appmeter:' + c.apid + ':' + name + ':';
    this.key = prefix + randomHex(8);
    this.url = c.origin + c.ping + '?';
    this.q = [];
    this.cp = {};
    this.cr = {};
    this.adopt(prefix, Date.now());
    var nuid = c.optout ? '' : stored('appmeter:nuid');
    if (!nuid && !c.optout) { nuid = randomHex(16); store('appmeter:nuid', nuid); }
    var settings = 'apid=' + encodeURIComponent(c.apid) + '&name=' + encodeURIComponent(name) +
      '&sfcode=' + encodeURIComponent(g.nol_sfcode || '') + '&market=' + encodeURIComponent(c.sfcode || '') +
      '&nuid=' + nuid + '&interval=' + c.interval +
      '&enabled=' + (c.enabled ? 1 : 0) + '&debug=' + (this.debug ? 1 : '') + '&optout=' + (c.optout ? 1 : '') +
      '&seed1=' + randomInteger() +
      '&seed2=' + randomInteger() + '&prefix=' + enc.encode(this.url).length;
    var created = engine.create(settings, time);
    this.h = created[0];
    this.run(created[1]);
    this.save();
    w.document.addEventListener('visibilitychange', function () {
      var hidden = w.document.visibilityState === 'hidden';
      self.call(hidden ? '\u0001hidden' : '\u0001visible', null, Date.now());
      if (hidden) self.flush(true);
    });
    w.addEventListener('pagehide', function (event) {
      if (!event.persisted) { self.call('\u0001leave', null, Date.now()); self.closed = true; self.save(); }
      self.flush(true);
    });
    this.flush();
  }
  function pageCallName(event) {
    return event === 'setPlayheadPosition' ? event : String(event).replace(/[\u0000-\u001f]/g, '');
  }
  Meter.prototype.call = function (event, argument, time) {
    if (this.h < 0) return;
    var name = String(event), text;
    if (name === 'setPlayheadPosition' && typeof argument === 'number' && Number.isInteger(argument) &&
        Math.abs(argument) < 1e15) {
      if (this.debug) w.console.debug('AppMeter ggPM setPlayheadPosition p=' + argument);
      this.run(this.e.playhead(this.h, argument, time));
      return;
    }
    if (name !== 'setPlayheadPosition' && name.toLowerCase() === 'loadmetadata') text = name + '\n' + metadataQuery(argument);
    else text = name + '\np=' + encodeURIComponent(argument === null || argument === undefined ? '' : String(argument));
    if (this.debug) w.console.debug('AppMeter ggPM ' + text.replace('\n', ' '));
    this.run(this.e.call(this.h, text, time));
  };
  Meter.prototype.run = function (out) {
    if (!out) {
      if (this.timer) { w.clearTimeout(this.timer); this.timer = 0; }
      return;
    }
    var self = this, changed = false, send = false, wake = 0, lines = out.split('\n'), forms = {}, dropped = [];
    for (var i = 0; i < lines.length; i++) {
      var f = lines[i].split('\t');
      switch (f[0]) {
        case 'send':
          this.q.push({ i: f[1], q: f[3], r: 0 });
          this.bound();
          if (f[2] !== '-') { delete this.cp[f[2]]; delete forms[f[2]]; dropped.push(f[2]); }
          changed = send = true;
          if (this.debug) w.console.log('AppMeter ping ' + f[1] + ': ' + f[3]);
          break;
        case 'checkpoint':
          this.cp[f[1]] = { i: f[2], q: f[3] };
          delete forms[f[1]];
          dropped.push(f[1]);
          changed = true;
          break;
        case 'credit':
          forms[f[1]] = f[2] + ' ' + f[3] + ' ' + f[4];
          break;
        case 'event':
          if (this.debug || this.h < 0) w.console[+f[1] < 2000 ? 'warn' : 'log']('AppMeter ' + f[1] + ': ' + f[2]);
          break;
        case 'log':
          if (this.debug) w.console.debug('AppMeter ' + f[1] + ': ' + f[2]);
          break;
        case 'wake':
          wake = +f[1];
          break;
        case 'trace':
          w.fetch(this.c.origin + this.c.trace, { method: 'POST', body: f.slice(1).join('\t'), keepalive: true,
            credentials: 'omit', headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
          break;
      }
    }
    if (!wake) {
      if (this.timer) { w.clearTimeout(this.timer); this.timer = 0; }
    } else if (!this.timer || wake < this.timerAt) {
      if (this.timer) w.clearTimeout(this.timer);
      this.timerAt = wake;
      this.timer = w.setTimeout(function () { self.timer = 0; self.run(self.e.wake(self.h, Date.now())); },
        Math.max(0, wake - Date.now()));
    }
    if (changed) this.save();
    for (var d = 0; d < dropped.length; d++) {
      if (this.cr[dropped[d]] !== undefined) {
        delete this.cr[dropped[d]];
        store(this.key + '#' + dropped[d], undefined);
      }
    }
    for (var slot in forms) {
      this.cr[slot] = forms[slot];
      store(this.key + '#' + slot, forms[slot] + ' ' + Date.now());
    }
    if (send) this.flush();
  };
  Meter.prototype.adopt = function (prefix, now) {
    var keys = [];
    try { for (var i = 0; i < w.localStorage.length; i++) keys.push(w.localStorage.key(i)); } catch (e) { return; }
    for (var k = 0; k < keys.length; k++) {
      if (!keys[k] || keys[k].indexOf(prefix) !== 0 || keys[k].indexOf('#') >= 0) continue;
      var state = stored(keys[k]) || {}, forms = {}, last = state.t || 0, slot;
      for (slot in state.cp || {}) {
        var form = String(stored(keys[k] + '#' + slot) || '').split(' ');
        if (form.length === 4) { forms[slot] = form; last = Math.max(last, +form[3] || 0); }
      }
      if (!state.closed && now - last < 30000) continue;
      this.q = this.q.concat(state.q || []);
      for (slot in state.cp || {}) {
        var cp = state.cp[slot], f = forms[slot];
        this.q.push({ i: cp.i, q: f ? this.e.creditQuery(cp.q, f[0], +f[1], +f[2]) : cp.q, r: 1 });
        store(keys[k] + '#' + slot, undefined);
      }
      store(keys[k], undefined);
    }
    for (k = 0; k < keys.length; k++) {
      var at = keys[k] ? keys[k].indexOf('#') : -1;
      if (at >= 0 && keys[k].indexOf(prefix) === 0 && stored(keys[k].slice(0, at)) === null) store(keys[k], undefined);
    }
    this.bound();
  };
  Meter.prototype.bound = function () {
    var over = this.e.x.am_overflow(this.q.length);
    if (over > 0) { this.q.splice(0, over); w.console.warn('AppMeter: the queue is full; dropped the oldest ' + over + ' ping(s)'); }
  };
  Meter.prototype.save = function () {
    store(this.key, { q: this.q, cp: this.cp, t: Date.now(), closed: !!this.closed });
  };
  Meter.prototype.done = function (ping) {
    var at = this.q.indexOf(ping);
    if (at >= 0) { this.q.splice(at, 1); this.save(); }
  };
  Meter.prototype.flush = function (leaving) {
    var self = this;
    if (leaving) {
      this.q.slice().forEach(function (ping) { self.send(ping, true).then(function (d) { if (d[0] !== 'retry') self.done(ping); }); });
      return;
    }
    if (this.busy || !this.q.length || this.retry) return;
    var ping = this.q[0];
    this.busy = true;
    this.send(ping).then(function (d) {
      self.busy = false;
      if (d[0] !== 'retry') { self.done(ping); self.flush(); return; }
      self.retry = w.setTimeout(function () { self.retry = 0; self.flush(); }, +d[1]);
    });
  };
  Meter.prototype.send = function (ping, leaving) {
    var self = this, url = this.url + this.e.sendQuery(ping.q, Date.now(), ping.r, enc.encode(this.url).length);
    return w.fetch(url, { keepalive: !!leaving, credentials: 'omit', cache: 'no-store' })
      .then(function (r) { return [r.status, parseFloat(r.headers.get('Retry-After'))]; },
            function () { return [0, -1]; })
      .then(function (a) { return self.e.outcome(self.h, a[0], a[1] >= 0 ? a[1] : -1); });
  };

  function initialize(instance, name, c) {
    if (instance.amStarted) return;
    instance.amStarted = true;
    var now = Date.now(), early = [], queued = instance.q || [];
    instance.q = [];
    for (var i = 0; i < queued.length; i++) {
      var at = queued[i][5] || now;
      early.push([queued[i], at]);
      if (at < now) now = at;
    }
    instance.ggPM = function () { early.push([Array.prototype.slice.call(arguments), Date.now()]); };
    loadEngine(c).then(function (engine) {
      var meter = new Meter(engine, name, c, instance.g || {}, now);
      instance.ggPM = function (event, argument) { meter.call(pageCallName(event), argument, Date.now()); };
      for (var k = 0; k < early.length; k++) meter.call(pageCallName(early[k][0][0]), early[k][0][1], early[k][1]);
    }).catch(function (e) {
      if (w.console) w.console.error('AppMeter: the engine ' + c.origin + c.engine + ' did not load (' + e + ')');
    });
  }

  w.AppMeterBrowser = {
    install: function (N) {
      if (N.amInstalled) return;
      N.amInstalled = true;
      N.isBuilt = function () { return true; };
      N.getInstance = function (name) {
        var instance = N[name] = N[name] || { g: {}, ggPM: function () { (instance.q = instance.q || []).push(arguments); } };
        if (!instance.ggInitialize) instance.ggInitialize = function (c) { initialize(instance, name, c); };
        return instance;
      };
    }
  };
})(window);
