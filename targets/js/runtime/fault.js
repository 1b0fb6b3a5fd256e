// targets/js/runtime/fault.js: the planted fault switched on in this copy of the js
// runtime (targets/FAULTS.md), by its switch's name; '' (none) in the source tree and
// in every normal build. A build with one (CMake's CONCORD_FAULT, or build_fault() of
// runners/campaign/faults.hpp for `concord mutants`) writes its own copy of this file.
'use strict';

module.exports = '';
