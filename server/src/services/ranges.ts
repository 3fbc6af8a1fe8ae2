/** Offsets → LSP positions: shared with save-to-apply and `simulate`, so it lives in core (sandbox/manifests/). */
export { lineCounterFor, positionAt, rangeAt } from '../../../sandbox/manifests/ranges';
