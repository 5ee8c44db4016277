// The uWebSockets.js binding this server runs on: the build that loads on
// this Node (chosen by uws-loader.ts) and short names for its types, kept
// apart so that the request, reply and router modules can name them without
// importing the server that composes them.
import type * as UwsTypes from 'uWebSockets.js';
import type { Logger } from '../log.js';
import { loadUwsBuild, type Uws } from './uws-loader.js';

export type { Uws };
export type HttpResponse = UwsTypes.HttpResponse;
export type HttpRequest = UwsTypes.HttpRequest;
export type TemplatedApp = UwsTypes.TemplatedApp;

/**
 * Loads the first uWebSockets.js build whose native binding runs on this Node
 * and libc (see uws-loader.ts for the order), and refuses to go on if none
 * does, saying why for each: the fork's package would otherwise fall back
 * silently to a slow JS shim.
 */
export function loadUws(log: Logger): Uws {
  const { uws, candidate } = loadUwsBuild();
  log.debug('uWebSockets.js build', {
    package: candidate.source,
    node: process.version,
    abi: process.versions.modules,
  });
  return uws;
}
