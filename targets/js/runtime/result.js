// targets/js/runtime/result.js: a run's result in its canonical serialisation (SPEC
// §9), written in pieces to a sink: the keys in the spec's order, no whitespace,
// names already quoted (JSON.stringify is §9.3's escaping for the ASCII names of §2).
// A journal can be longer than the longest string V8 makes, so the line is never
// one string: the sink writes it out a chunk at a time.
'use strict';

function list(out, items) {
  for (let i = 0; i < items.length; i++) out.put(i > 0 ? ',' + items[i] : items[i]);
}

function writeResult(out, w) {
  out.put(`{"ok":true,"run":{"seed":${w.seed},"turns":${w.turnLimit},"max_processes":${w.maxProcesses}},`);
  out.put(`"outcome":"${w.outcome}","turns":${w.turns},"journal":[`);
  list(out, w.journal);
  out.put('],"failures":[');
  list(out, w.failures);
  out.put('],"decisions":[');
  list(out, w.decisions);
  out.put('],"processes":[');
  for (const p of w.procs)
    out.put(`${p.id > 0 ? ',' : ''}{"id":${p.id},"name":${w.qnames[p.name]},"kind":${p.kind.qname}}`);
  out.put('],"alive":[');
  let first = true;
  for (const p of w.procs) {
    if (!p.alive) continue;
    let s = `${first ? '' : ','}{"name":${w.qnames[p.name]},"state":{`;
    const k = p.kind;
    for (let i = 0; i < k.qfields.length; i++)
      s += `${i > 0 ? ',' : ''}${k.qfields[i]}:${k.types[i] === 1 ? w.qnames[p.state[i]] : String(p.state[i])}`;
    out.put(s + '}}');
    first = false;
  }
  out.put('],"supervisors":[');
  for (let i = 0; i < w.sups.length; i++) {
    const s = w.sups[i];
    let t = `${i > 0 ? ',' : ''}{"name":${w.qnames[s.name]},"alive":${s.alive},"children":[`;
    for (let c = 0; c < s.children.length; c++)
      t += `${c > 0 ? ',' : ''}{"name":${w.qnames[s.children[c].name]},"running":${s.children[c].running}}`;
    out.put(t + ']}');
  }
  out.put(']}\n');
}

// {"ok":false,...} of SPEC §10, canonical.
function errorLine(code, message) {
  return JSON.stringify({ ok: false, code, message }) + '\n';
}

module.exports = { writeResult, errorLine };
