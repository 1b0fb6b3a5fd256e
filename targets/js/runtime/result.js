// targets/js/runtime/result.js: a run's result in its canonical serialisation (SPEC
// §9), written in pieces to a sink: the keys in the spec's order, no whitespace,
// every name quoted once per run (JSON.stringify is §9.3's escaping for the ASCII
// names of §2). failures and decisions are drawn from the journal, as §9.1 defines
// them. A long journal is never one string: the sink writes the line out a chunk at
// a time. An event is one template string, which the sink copies into its buffer
// with V8's own code (measured: writing the bytes from JavaScript, every fragment
// encoded once, cost twice as much).
'use strict';

const { START, DELIVER, DROP, EXIT, DECISION, SIGNAL, CALL, RESUME, API, ACTIONS } = require('./journal.js');
const API_OPS = ['terminate_child', 'restart_child', 'delete_child'];  // as emitted (§20)
const API_RESULTS = ['ok', 'not_found', 'running', 'restarting', 'ignored', 'failed'];  // §20's numbers
const { SIGNAL_KINDS, EFFECTS } = require('./links.js');
const FAULT = require('./fault.js');
const REVERSED = FAULT === 'FAULT_SPAWNED_NUMBER_BACKWARDS';  // a planted fault (targets/FAULTS.md)

// A run's own name (a spawned k-N the program does not name) quoted; with the fault
// on, N written backwards (k-21 for k-12).
function quoteRunName(n) {
  if (!REVERSED) return JSON.stringify(n);
  const dash = n.lastIndexOf('-');
  return JSON.stringify(n.slice(0, dash + 1) + [...n.slice(dash + 1)].reverse().join(''));
}

function writeResult(out, w) {
  const prog = w.prog, j = w.journal;
  const q = w.names.map((n, i) => (i < prog.qnames.length ? prog.qnames[i] : quoteRunName(n)));
  const qreasons = j.reasons.map((r) => JSON.stringify(r));
  const qactions = ACTIONS.map((a) => JSON.stringify(a));
  const from = (id) => (id < 0 ? 'null' : q[id]);
  const args = (sig, index) => {
    if (index < 0) return '[]';
    const values = j.args[index], types = prog.sigs[sig].types;
    let s = '[';
    for (let i = 0; i < values.length; i++) s += (i > 0 ? ',' : '') + (types[i] === 1 ? q[values[i]] : String(values[i]));
    return s + ']';
  };
  const failure = (reason) => reason > 1;  // not normal (0), not shutdown (1)

  out.put(`{"ok":true,"run":{"seed":${w.seed},"turns":${w.turnLimit},"max_processes":${w.maxProcesses}},`);
  out.put(`"outcome":"${w.outcome}","turns":${w.turns},"journal":[`);
  let sep = '';
  j.forEach((c, i) => {
    const turn = c[i + 1];
    switch (c[i]) {
      case START:
        out.put(`${sep}{"ev":"start","turn":${turn},"name":${q[c[i + 2]]},"kind":` +
                `${c[i + 3] < 0 ? '"supervisor"' : prog.kinds[c[i + 3]].qname}}`);
        break;
      case DELIVER:
        out.put(`${sep}{"ev":"deliver","turn":${turn},"ready":${c[i + 2]},"to":${q[c[i + 3]]},"from":${from(c[i + 4])},` +
                `"tag":${prog.sigs[c[i + 5]].qtag},"args":${args(c[i + 5], c[i + 6])}}`);
        break;
      case DROP:
        out.put(`${sep}{"ev":"drop","turn":${turn},"from":${from(c[i + 2])},"to":${q[c[i + 3]]},` +
                `"tag":${prog.sigs[c[i + 4]].qtag},"args":${args(c[i + 4], c[i + 5])}}`);
        break;
      case EXIT:
        out.put(`${sep}{"ev":"exit","turn":${turn},"name":${q[c[i + 2]]},"reason":${qreasons[c[i + 3]]}}`);
        break;
      case DECISION:
        out.put(`${sep}{"ev":"decision","turn":${turn},"supervisor":${q[c[i + 2]]},"process":${q[c[i + 3]]},` +
                `"action":${qactions[c[i + 4]]}}`);
        break;
      case CALL:
        out.put(`${sep}{"ev":"call","turn":${turn},"ready":${c[i + 2]},"to":${q[c[i + 3]]},"from":${from(c[i + 4])},` +
                `"tag":${prog.sigs[c[i + 5]].qtag},"args":${args(c[i + 5], c[i + 6])}}`);
        break;
      case RESUME: {
        const v = j.args[c[i + 6]][0];
        out.put(`${sep}{"ev":"resume","turn":${turn},"ready":${c[i + 2]},"to":${q[c[i + 3]]},"from":${q[c[i + 4]]},` +
                `"value":${c[i + 5] === 0 ? String(v) : q[v]}}`);
        break;
      }
      case API:
        out.put(`${sep}{"ev":"api","turn":${turn},"from":${q[c[i + 2]]},"supervisor":${q[c[i + 3]]},` +
                `"op":"${API_OPS[c[i + 4]]}","child":${q[c[i + 5]]},"result":"${API_RESULTS[c[i + 6]]}"}`);
        break;
      case SIGNAL:
        out.put(`${sep}{"ev":"signal","turn":${turn},"kind":"${SIGNAL_KINDS[c[i + 2]]}","from":${q[c[i + 3]]},` +
                `"to":${q[c[i + 4]]},"reason":${qreasons[c[i + 5]]},"effect":"${EFFECTS[c[i + 6]]}"}`);
        break;
    }
    sep = ',';
  });
  out.put('],"failures":[');
  sep = '';
  j.forEach((c, i) => {
    if (c[i] !== EXIT || !failure(c[i + 3])) return;
    out.put(`${sep}{"process":${q[c[i + 2]]},"code":${qreasons[c[i + 3]]},"turn":${c[i + 1]}}`);
    sep = ',';
  });
  out.put('],"decisions":[');
  sep = '';
  j.forEach((c, i) => {
    if (c[i] !== DECISION) return;
    out.put(`${sep}{"process":${q[c[i + 3]]},"supervisor":${q[c[i + 2]]},"action":${qactions[c[i + 4]]},` +
            `"turn":${c[i + 1]}}`);
    sep = ',';
  });
  out.put('],"processes":[');
  for (const p of w.procs) out.put(`${p.id > 0 ? ',' : ''}{"id":${p.id},"name":${q[p.name]},"kind":${p.kind.qname}}`);
  out.put('],"alive":[');
  sep = '';
  for (const p of w.procs) {
    if (!p.alive) continue;
    let s = `${sep}{"name":${q[p.name]},"state":{`;
    const k = p.kind;
    for (let i = 0; i < k.qfields.length; i++)
      s += `${i > 0 ? ',' : ''}${k.qfields[i]}:${k.types[i] === 1 ? q[p.state[i]] : String(p.state[i])}`;
    out.put(s + '}}');
    sep = ',';
  }
  out.put('],"supervisors":[');
  for (let i = 0; i < w.sups.length; i++) {
    const s = w.sups[i];
    let t = `${i > 0 ? ',' : ''}{"name":${q[s.name]},"alive":${s.alive},"children":[`;
    for (let c = 0; c < s.children.length; c++)
      t += `${c > 0 ? ',' : ''}{"name":${q[s.children[c].name]},"running":${s.children[c].running}}`;
    out.put(t + ']}');
  }
  out.put(']}\n');
}

// {"ok":false,...} of SPEC §10, canonical, in ASCII (other characters escaped): the
// host writes its lines as Latin-1.
function errorLine(code, message) {
  const line = JSON.stringify({ ok: false, code, message });
  return line.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

module.exports = { writeResult, errorLine };
