"""The JavaScript the capture runs in every page: readiness bookkeeping, probes, scrolling.

:data:`READINESS_INIT` is installed as an init script in every context, before any page
script runs. It wraps the timer, animation-frame, ``fetch`` and ``XMLHttpRequest`` APIs and
watches the DOM, so that the page can answer "is anything still coming?":

- one-shot timers (``setTimeout``, an interval's first firing, a one-off animation frame)
  that are still pending, with when they are due;
- ``fetch`` and XHR requests in flight, and when the last one ended;
- when the DOM last changed.

Work that repeats forever (an interval after its first firing, a timer that re-arms itself
from its own callback with the same delay, an animation-frame loop) is *recurring*: it is
never waited for, and the DOM changes it makes are counted as noise rather than as the page
still loading, so a ticking clock or a carousel does not hold a page unsettled. Their first
firing still counts, so content that appears on the first tick is waited for.
"""

from __future__ import annotations

__all__ = ["PROBE", "READINESS_INIT", "READY_STATE", "SCROLL_THROUGH"]

READINESS_INIT = r"""(() => {
  if (window.__samepage) return;
  const now = performance.now.bind(performance);
  const native = {
    setTimeout: window.setTimeout, clearTimeout: window.clearTimeout,
    setInterval: window.setInterval, clearInterval: window.clearInterval,
    raf: window.requestAnimationFrame, caf: window.cancelAnimationFrame,
    fetch: window.fetch, send: XMLHttpRequest.prototype.send,
  };
  const state = {
    native: native, pending: new Map(), frames: new Set(), requests: 0,
    lastChange: now(), lastRequestEnd: 0, changes: 0, noise: 0, current: null,
  };
  Object.defineProperty(window, '__samepage', {value: state, enumerable: false});
  const observer = new MutationObserver((records) => note(records.length));
  observer.observe(document, {childList: true, subtree: true, attributes: true,
                              characterData: true});
  function note(count) {
    if (count > 0) { state.changes += count; state.lastChange = now(); }
  }
  // Runs a page callback; DOM changes it made are noise when the callback is recurring.
  function invoke(fn, self, args, recurring, chain) {
    note(observer.takeRecords().length);
    const outer = state.current;
    state.current = chain;
    try {
      return fn.apply(self, args);
    } finally {
      state.current = outer;
      const made = observer.takeRecords().length;
      if (recurring) state.noise += made; else note(made);
    }
  }
  // A timer armed from a callback of the same chain (same function or same delay of at
  // least 50 ms) is a clock re-arming itself: recurring. Short chains (chunked rendering)
  // and everything else are one-shot and waited for.
  function isRecurring(fn, delay) {
    const c = state.current;
    return c !== null && c.kind === 'timer' && delay >= 50 && (c.fn === fn || c.delay === delay);
  }
  window.setTimeout = function (fn, delay, ...args) {
    if (typeof fn !== 'function') return native.setTimeout.call(window, fn, delay, ...args);
    const ms = Math.max(0, Number(delay) || 0);
    const recurring = isRecurring(fn, ms);
    const chain = {kind: 'timer', fn: fn, delay: ms};
    let id = 0;
    const run = function () {
      state.pending.delete(id);
      return invoke(fn, this, args, recurring, chain);
    };
    id = native.setTimeout.call(window, run, ms);
    if (!recurring) state.pending.set(id, now() + ms);
    return id;
  };
  window.clearTimeout = function (id) {
    state.pending.delete(id);
    return native.clearTimeout.call(window, id);
  };
  window.setInterval = function (fn, delay, ...args) {
    if (typeof fn !== 'function') return native.setInterval.call(window, fn, delay, ...args);
    const ms = Math.max(0, Number(delay) || 0);
    const chain = {kind: 'interval', fn: fn, delay: ms};
    let fired = false, id = 0;
    const run = function () {
      const first = !fired;
      fired = true;
      state.pending.delete(id);
      return invoke(fn, this, args, !first, chain);
    };
    id = native.setInterval.call(window, run, ms);
    state.pending.set(id, now() + ms);
    return id;
  };
  window.clearInterval = function (id) {
    state.pending.delete(id);
    return native.clearInterval.call(window, id);
  };
  window.requestAnimationFrame = function (fn) {
    if (typeof fn !== 'function') return native.raf.call(window, fn);
    const c = state.current;
    const recurring = c !== null && c.kind === 'frame';
    const chain = {kind: 'frame', fn: fn, delay: 0};
    let id = 0;
    id = native.raf.call(window, function (t) {
      state.frames.delete(id);
      return invoke(fn, this, [t], recurring, chain);
    });
    if (!recurring) state.frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = function (id) {
    state.frames.delete(id);
    return native.caf.call(window, id);
  };
  function requestEnded() {
    state.requests = Math.max(0, state.requests - 1);
    state.lastRequestEnd = now();
  }
  if (native.fetch) {
    window.fetch = function (...args) {
      state.requests += 1;
      let promise;
      try {
        promise = native.fetch.apply(this, args);
      } catch (error) {
        requestEnded();
        throw error;
      }
      promise.then(requestEnded, requestEnded);
      return promise;
    };
  }
  XMLHttpRequest.prototype.send = function (...args) {
    state.requests += 1;
    this.addEventListener('loadend', requestEnded, {once: true});
    try {
      return native.send.apply(this, args);
    } catch (error) {
      requestEnded();
      throw error;
    }
  };
})();"""
"""Installed in every context before page scripts run (see the module docstring)."""

READY_STATE = r"""async ([quietMs, horizonMs, maxWaitMs]) => {
  const s = window.__samepage;
  const frame = (s ? s.native.raf : requestAnimationFrame).bind(window);
  const later = (s ? s.native.setTimeout : setTimeout).bind(window);
  const clock = performance.now.bind(performance);
  const started = clock();
  for (;;) {
    await new Promise((done) => frame(() => frame(done)));
    const t = clock();
    const loaded = document.readyState === 'complete';
    let timers = 0, nextDue = Infinity;
    if (s) {
      for (const due of s.pending.values()) {
        if (due - t <= horizonMs) { timers += 1; nextDue = Math.min(nextDue, due - t); }
      }
    }
    const frames = s ? s.frames.size : 0;
    const requests = s ? s.requests : 0;
    const quietFor = s ? t - Math.max(s.lastChange, s.lastRequestEnd) : 0;
    const ready = !!s && loaded && timers === 0 && frames === 0 && requests === 0
      && quietFor >= quietMs;
    if (ready || t - started >= maxWaitMs) {
      return {ready: ready, instrumented: !!s, loaded: loaded, timers: timers,
              nextDue: Number.isFinite(nextDue) ? Math.round(nextDue) : null,
              frames: frames, requests: requests, quietFor: Math.round(quietFor),
              changes: s ? s.changes : 0, noise: s ? s.noise : 0};
    }
    const wait = Math.min(Math.max(quietMs - quietFor, 16), 100);
    await new Promise((done) => later(done, wait));
  }
}"""
"""Waits in the page, up to ``maxWaitMs``, for the page's own work to finish; reports it."""

PROBE = r"""async (maxChars) => {
  await document.fonts.ready;
  const s = window.__samepage;
  const frame = (s ? s.native.raf : requestAnimationFrame).bind(window);
  await new Promise((done) => frame(() => frame(done)));
  const root = document.documentElement, body = document.body;
  const height = Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0);
  const text = body ? body.innerText : (root ? root.innerText : "");
  return {height: height, text: text.slice(0, maxChars), title: document.title,
          changes: s ? s.changes : -1};
}"""
"""One cheap capture: size, visible text (capped in the page), title, and the count of DOM
changes that count as loading so far (to tell whether the page moved during a screenshot)."""

SCROLL_THROUGH = r"""async ([limit, from]) => {
  const s = window.__samepage;
  const frame = (s ? s.native.raf : requestAnimationFrame).bind(window);
  const twoFrames = () => new Promise((done) => frame(() => frame(done)));
  const height = () => Math.min(limit, Math.max(
    document.documentElement ? document.documentElement.scrollHeight : 0,
    document.body ? document.body.scrollHeight : 0));
  const step = Math.max(200, window.innerHeight - 100);
  let y = from;
  while (y + window.innerHeight < height()) {
    y = Math.min(y + step, height() - window.innerHeight);
    window.scrollTo(0, y);
    await twoFrames();
  }
  const reached = y + window.innerHeight;
  window.scrollTo(0, 0);
  await twoFrames();
  return {reached: reached, height: height()};
}"""
"""Scrolls from ``from`` down to the capture height in steps of about a screen, one pair of
frames per step, so that sections loaded on view (lazy images, IntersectionObserver) start
loading; then back to the top. Returns how far it got and the page height then."""
