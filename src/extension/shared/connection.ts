/**
 * Entry of dist/connection.js: what decides and sends a request (the gate, the request layer,
 * the API client and its normalisation, and the credits read through them). `Ctx` requires it
 * on first need (`ctx.gate`, `ctx.requests`, `ctx.client()`, `ctx.readCredits()`), which is
 * after activation: the status bar item reads the layer on the turn after, a hover or a
 * command later still. Activation registers only.
 */
export { OdinClient } from '../../api/client';
export { SessionGate } from './gate';
export { createRequestLayer } from './requestLayer';
export { readCredits } from '../../core/search/run';
