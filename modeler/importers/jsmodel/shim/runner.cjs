'use strict';
// Loads the uploaded module (argv[2]) and reports what it built with the
// recorded libraries, or its error and line, after a marker on stdout.
const { pathToFileURL } = require('url');
const { report } = require('./node_modules/recorder.cjs');

const MARK = '\n@@workbench-result@@';
const write = process.stdout.write.bind(process.stdout);
const model = process.argv[2];

function lineOf(error) {
  const text = String((error && error.stack) || '');
  const found = /model\.[cm]js:(\d+)/.exec(text);
  return found ? Number(found[1]) : null;
}

function describe(error) {
  if (error && error.code === 'ERR_ACCESS_DENIED') {
    const what = [error.permission, error.resource].filter(Boolean).join(' ');
    return `the module tried to use ${what || 'a denied API'}, which an imported module may not (it may only build its entities)`;
  }
  if (error && ['ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNREFUSED', 'ENETDOWN'].includes(error.code)) {
    return `the module tried to reach the network (${error.code}), which an imported module may not`;
  }
  return `${(error && error.name) || 'Error'}: ${String((error && error.message) || error).slice(0, 500)}`;
}

import(pathToFileURL(model).href).then(
  () => write(MARK + JSON.stringify(report())),
  (error) => {
    // Node prints a syntax error's file and line only when it is uncaught.
    if (error instanceof SyntaxError && lineOf(error) === null) throw error;
    write(MARK + JSON.stringify({ error: describe(error), line: lineOf(error) }));
  },
);
