// targets/js/runtime/loader.js: a program's JavaScript (targets/js/README.md, "The
// emitted program") loaded into a fresh vm context: the prelude (int64.js), compiled
// once for all programs, runs there first, then the program, whose tables come back
// completed with the quoted texts the result writer prints (names are quoted once per
// program, not once per event). Whatever a program leaves in its context (a global,
// a changed prototype) goes with it.
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { rt } = require('./run.js');
const FAULT = require('./fault.js');

const PRELUDE = new vm.Script(fs.readFileSync(path.join(__dirname, 'int64.js'), 'utf8'), { filename: 'int64.js' });

function link(prog) {
  prog.qnames = prog.names.map((n) => JSON.stringify(n));
  prog.nameIds = new Map(prog.names.map((n, i) => [n, i]));
  for (const s of prog.sigs) s.qtag = JSON.stringify(s.tag);
  prog.kinds.forEach((k, i) => {
    k.index = i;
    k.qname = JSON.stringify(k.name);
    k.qfields = k.fields.map((f) => JSON.stringify(f));
  });
  return prog;
}

// The program's source is a function body that returns its tables. Throws what the
// compiler or the program throws.
function load(source) {
  const context = vm.createContext({ concord: { rt, FAULT } });
  PRELUDE.runInContext(context);
  const script = new vm.Script(`(function () {\n'use strict';\n${source}\n})`, { filename: 'concord_prog.js' });
  return link(script.runInContext(context)());
}

module.exports = { load };
