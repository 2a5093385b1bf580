// The browser SDK's engine alone, as V8 runs it (Node, the engine Chromium uses), without a page:
// four hours of VOD, 3,600 `setPlayheadPosition` calls each on a clock one second apart, the
// calls' text and output lines exactly as appmeter.js passes and reads them. Prints each hour's
// wall time (the first includes compiling the module) and a digest of everything the engine
// wrote, which must not change when only its speed does (docs/performance.md, "Browser SDK").
//   node scripts/browser-engine-bench.js [Server/Sources/CensusHTTP/Browser/appmeter-core.wasm]
'use strict';
const fs = require('fs');
const crypto = require('crypto');
const file = process.argv[2] || __dirname + '/../Server/Sources/CensusHTTP/Browser/appmeter-core.wasm';
let memory = null;
const ignored = () => 0;
const imports = { wasi_snapshot_preview1: {
  random_get: (at, length) => { crypto.randomFillSync(new Uint8Array(memory.buffer, at, length)); return 0; },
  fd_write: ignored, fd_close: ignored, fd_seek: ignored, proc_exit: ignored } };
const enc = new TextEncoder(), dec = new TextDecoder();
WebAssembly.instantiate(fs.readFileSync(file), imports).then((m) => {
  const x = m.instance.exports;
  memory = x.memory;
  let kept = null;
  const put = (text) => {
    const room = text.length * 3 + 1;
    let view = kept;
    if (!view || view.byteLength < room) {
      view = new Uint8Array(x.memory.buffer, x.am_alloc(room), room);
      kept = room <= 65536 ? view : null;
    }
    return [view.byteOffset, enc.encodeInto(text, view).written];
  };
  const out = (length) => {
    if (length <= 0) return '';
    const bytes = new Uint8Array(x.memory.buffer, x.am_output(), length);
    if (length > 4096) return dec.decode(bytes.slice());
    for (let i = 0; i < length; i++) if (bytes[i] > 127) return dec.decode(bytes.slice());
    return String.fromCharCode.apply(null, bytes);
  };
  let time = 1800000000000;
  // Fixed seeds: the same ping ids every run, so the digest compares two builds.
  const settings = 'apid=P00000000-0000-4000-8000-000000000001&name=bench&sfcode=dcr&market=dcr' +
    '&nuid=0123456789abcdef0123456789abcdef&interval=60&enabled=1&debug=&optout=&seed1=1&seed2=2&prefix=40';
  const created = put(settings);
  const handle = x.am_create(created[0], created[1], time);
  const digest = crypto.createHash('sha256').update(out(x.am_output_length()));
  const call = (text) => { const a = put(text); digest.update(out(x.am_call(handle, a[0], a[1], time))); };
  // A whole-number playhead crosses as the number, as appmeter.js passes it (am_playhead).
  const playhead = (position) => { digest.update(out(x.am_playhead(handle, position, time))); };
  const hours = [];
  for (let hour = 1; hour <= 4; hour++) {
    call('loadMetadata\ntype=content&assetid=HOUR-' + hour + '&program=P&title=T&length=3600' +
      '&airdate=20261121%2020%3A00%3A00&isfullepisode=y&adloadtype=2');
    const start = process.hrtime.bigint();
    for (let position = 0; position < 3600; position++) {
      time += 1000;
      playhead(position);
    }
    call('end\np=3600');
    hours.push((Number(process.hrtime.bigint() - start) / 1e6).toFixed(1) + ' ms');
  }
  console.log('browser-engine-bench: hours ' + hours.join(', ') + '; output digest ' + digest.digest('hex').slice(0, 16));
});
