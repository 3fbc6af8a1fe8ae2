// Stands in for the `whatwg-url` package in the Node bundles (scripts/build.mjs aliases it here).
// Its one user, node-fetch 2 (under @kubernetes/client-node), takes `require('url').URL || whatwgUrl.URL`
// (node-fetch/lib/index.js): on Node the first is always there, so whatwg-url — with tr46's Unicode table,
// 290 kB of dist/extension.js — was bundled and never ran. This gives node-fetch the same URL class.
export { URL } from 'node:url';
