// The headless host as one script beside the built entry, made by build/host-bundle-plugin.ts and run by serve.ts with
// V8's code cache (code-cache.ts). It is a CommonJS module already wrapped in the function `require` puts around a
// module, so it is not a file to `require`. Its name and wrapper live here so the build and the loader agree on them.
export const HOST_BUNDLE = 'serve-host.script.js';

/**
 * The script is `head`, the module's code, `tail`: a function expression of the five values a CommonJS module gets.
 * Strict, as the ES modules it is made from are; the tail on a line of its own, in case the code ends in a comment.
 */
export const HOST_BUNDLE_WRAPPER = { head: '(function (exports, require, module, __filename, __dirname) {"use strict";', tail: '\n})' } as const;
