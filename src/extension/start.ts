/**
 * The extension's main module (dist/extension.js): loads the activation bundle, dist/main.js
 * (the composition root, extension.ts), through its code cache (codeCache.ts). The parts that
 * use modules of that bundle require this file and read them from its exports.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as codeCache.ts's imports
import path = require('node:path');
import { loadWithCodeCache } from './codeCache';

module.exports = loadWithCodeCache(path.join(__dirname, 'main.js'));
