import { createHash } from 'node:crypto';
import { FIRST_USE_EVENTS, FIRST_USE_MARK } from '#shared/first-use';

/** The entry's script tag as the build writes it (vite.config.ts, entryAfterPaint). */
const ENTRY_TAG = /<script type="module" crossorigin fetchpriority="low" src="(\/assets\/[\w.-]+\.js)"><\/script>/;

/**
 * Asks for the entry once the page has loaded and its first contentful paint is on screen: the page's
 * own photo and paint come first, and nothing of the app is asked for before them (issue 34, decision
 * 052). A browser without paint entries asks a frame after the load event; one that has not reported
 * the paint a second after it (a page loaded in a hidden tab) asks then. A visitor who reaches for the
 * page first (FIRST_USE_EVENTS) has it asked for at once, and <html> marked so (FIRST_USE_MARK): the
 * entry then runs the app without waiting for another touch (main.tsx). A pointer's move counts only
 * if it moved: Chromium sends one that did not when it first lays a page out under a resting pointer.
 * Its text never changes: the content security policy allows it by its hash, and no other inline
 * script runs.
 */
export const ENTRY_LOADER = [
  '(function(){var asked=false,d=document,o={capture:true,passive:true},',
  `uses=${JSON.stringify(FIRST_USE_EVENTS)};`,
  'function ask(){if(asked)return;asked=true;',
  "var s=d.createElement('script');s.type='module';s.crossOrigin='';",
  's.src=d.querySelector(\'meta[name="app-entry"]\').content;d.head.appendChild(s)}',
  'function reached(e){if(e.type==="pointermove"&&!e.movementX&&!e.movementY)return;',
  'uses.forEach(function(u){removeEventListener(u,reached,o)});',
  `d.documentElement.setAttribute(${JSON.stringify(FIRST_USE_MARK)},'');ask()}`,
  'uses.forEach(function(u){addEventListener(u,reached,o)});',
  "addEventListener('load',function(){setTimeout(ask,1000);",
  "try{new PerformanceObserver(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){",
  "observer.disconnect();setTimeout(ask)}}).observe({type:'paint',buffered:true})}",
  'catch(e){requestAnimationFrame(function(){setTimeout(ask)})}})})()',
].join('');

/** The loader's hash, as `script-src` names it. */
export const ENTRY_LOADER_SOURCE = `'sha256-${createHash('sha256').update(ENTRY_LOADER).digest('base64')}'`;

/**
 * A public page the server rendered, with its entry asked for by the loader rather than by a tag the
 * browser fetches while it parses. A module script is deferred, yet it is fetched, and usually run,
 * before the first paint: a phone on a slow network waited a round trip more for a page whose paint
 * needs none of it. A page without the tag is returned as it is.
 */
export function entryAfterLoad(html: string): string {
  const tag = ENTRY_TAG.exec(html);
  if (!tag) return html;
  return html.replace(
    tag[0],
    () => `<meta name="app-entry" content="${tag[1]}">\n    <script>${ENTRY_LOADER}</script>`,
  );
}
