"""The JavaScript the capture runs in every page: readiness bookkeeping, probes, scrolling.

:data:`READINESS_INIT` is installed as an init script in every context, before any page
script runs. It wraps the timer, animation-frame, ``fetch`` and ``XMLHttpRequest`` APIs and
watches the DOM, so that the page can answer "is anything still coming?":

- one-shot timers (``setTimeout``, an interval's first firing, a one-off animation frame)
  that are still pending, with when they are due and which function they will call;
- ``fetch`` and XHR requests in flight (with their URLs), and when the last one ended;
- when the DOM last changed, and where (the changed node, as a short selector).

- idle callbacks (``requestIdleCallback``) still pending;
- the URLs the page polls (a request to a URL it has already fetched), for the capture to
  leave out of the requests it waits for.

Work that repeats forever (an interval after its first firing, a timer that re-arms itself
from its own callback with the same delay, an animation-frame or idle-callback loop, a
request polling a URL again, the second and later messages of a WebSocket or an
EventSource) is *recurring*: it is never waited for, and the DOM changes it makes are
counted as noise rather than as the page still loading, so a ticking clock, a carousel or a
live feed does not hold a page unsettled (the count of recurring callbacks that ran tells
that the page moves by itself). Their first firing still counts, so content that
appears on the first tick or the first message is waited for.

The capture's own doing must never look like the page moving, so the script also adopts one
style sheet (``adoptedStyleSheets`` adds no node, so the observer sees nothing): carets are
transparent and CSS animations run to their end at once. Screenshots are then taken without
Playwright's caret hiding, which writes a ``style`` attribute on every text field and would
count as a change on any page with a search box.

The page's own CSS transitions are finished as they start (``transitionrun``), one by one.
The style sheet must not shorten them: ``transition-property`` is ``all`` unless a page says
otherwise, so a duration set on every element makes every property change of every element
a transition the page never had. A full-page screenshot resizes the page for a moment (its
narrow-screen media queries apply and un-apply); on a Datasette table of 100 rows that made
12,725 transitions, which Playwright's ``animations="disabled"`` finishes one
``transitionrun`` at a time over all of the page's animations, and the screenshot never
returned.
"""

from __future__ import annotations

__all__ = ["MEASURE", "PROBE", "READINESS_INIT", "READY_STATE", "SCROLL_THROUGH"]

READINESS_INIT = r"""(() => {
  if (window.__samepage) return;
  const now = performance.now.bind(performance);
  const native = {
    setTimeout: window.setTimeout, clearTimeout: window.clearTimeout,
    setInterval: window.setInterval, clearInterval: window.clearInterval,
    raf: window.requestAnimationFrame, caf: window.cancelAnimationFrame,
    fetch: window.fetch, send: XMLHttpRequest.prototype.send,
    open: XMLHttpRequest.prototype.open,
    ric: window.requestIdleCallback, cic: window.cancelIdleCallback,
  };
  const state = {
    native: native, pending: new Map(), frames: new Map(), idle: new Map(), requests: 0,
    inflight: new Map(), lastNode: '', lastChange: now(), lastRequestEnd: 0, changes: 0,
    noise: 0, recurring: 0, current: null,
    fetched: new Map(), polls: new Set(), fired: new WeakSet(),
  };
  Object.defineProperty(window, '__samepage', {value: state, enumerable: false});
  // What a report names: the node that changed last, as a short selector (main > p#n), a
  // pending timer, as its kind, function and delay (setTimeout(poll, 1000)), and a pending
  // one-off frame or idle callback, as its kind and function (requestAnimationFrame(draw)).
  state.where = () => {
    const node = state.lastNode;
    let e = node && node.nodeType === 1 ? node : (node ? node.parentElement : null);
    const parts = [];
    while (e && parts.length < 3) {
      let part = e.localName;
      if (e.id) { parts.unshift(part + '#' + e.id); break; }
      const names = typeof e.className === 'string' ? e.className.trim().split(/\s+/) : [];
      if (names[0]) part += '.' + names.slice(0, 2).join('.');
      parts.unshift(part);
      e = e.parentElement;
    }
    return parts.join(' > ');
  };
  state.timer = (entry) => {
    const name = entry.fn.name
      || Function.prototype.toString.call(entry.fn).replace(/\s+/g, ' ').slice(0, 40);
    return entry.kind + '(' + name + (entry.ms === undefined ? '' : ', ' + entry.ms) + ')';
  };
  // The capture's look, set before the page is observed and without a node (see above).
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('*, *::before, *::after { caret-color: transparent !important; '
      + 'animation-delay: 0s !important; animation-duration: 1ms !important; '
      + 'animation-iteration-count: 1 !important; scroll-behavior: auto !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch (error) { /* no constructable style sheets: Playwright's animation freeze remains */ }
  // The page's own transitions end as they start (never a duration on every element: see
  // above). Only the transition that started is looked up, on its own element.
  window.addEventListener('transitionrun', (event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const pseudo = event.pseudoElement || null;
    for (const animation of target.getAnimations({subtree: pseudo !== null})) {
      const effect = animation.effect;
      if (animation instanceof CSSTransition && effect && effect.target === target
          && (effect.pseudoElement || null) === pseudo
          && animation.transitionProperty === event.propertyName) {
        try { animation.finish(); } catch (error) { /* already over */ }
      }
    }
  }, true);
  const observer = new MutationObserver((records) => note(records));
  observer.observe(document, {childList: true, subtree: true, attributes: true,
                              characterData: true});
  function note(records) {
    if (records.length > 0) {
      state.changes += records.length;
      state.lastChange = now();
      state.lastNode = records[records.length - 1].target;
    }
  }
  // Runs a page callback; DOM changes it made are noise when the callback is recurring.
  function invoke(fn, self, args, recurring, chain) {
    note(observer.takeRecords());
    const outer = state.current;
    state.current = chain;
    try {
      return fn.apply(self, args);
    } finally {
      state.current = outer;
      const made = observer.takeRecords();
      if (recurring) {
        state.recurring += 1;
        state.noise += made.length;
      } else {
        note(made);
      }
    }
  }
  // A timer of at least 50 ms armed from a callback of the same chain (same function or same
  // delay), or of at least 500 ms for a function that already ran as a timer callback (a
  // poll re-armed from a request's promise), is a clock re-arming itself: recurring. Short
  // chains (chunked rendering, debounced updates) and everything else are one-shot and
  // waited for.
  function isRecurring(fn, delay) {
    if (delay < 50) return false;
    if (delay >= 500 && state.fired.has(fn)) return true;
    const c = state.current;
    return c !== null && c.kind === 'timer' && (c.fn === fn || c.delay === delay);
  }
  window.setTimeout = function (fn, delay, ...args) {
    if (typeof fn !== 'function') return native.setTimeout.call(window, fn, delay, ...args);
    const ms = Math.max(0, Number(delay) || 0);
    const recurring = isRecurring(fn, ms);
    const chain = {kind: 'timer', fn: fn, delay: ms};
    let id = 0;
    const run = function () {
      state.pending.delete(id);
      state.fired.add(fn);
      return invoke(fn, this, args, recurring, chain);
    };
    id = native.setTimeout.call(window, run, ms);
    if (!recurring) state.pending.set(id, {due: now() + ms, kind: 'setTimeout', fn: fn, ms: ms});
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
    state.pending.set(id, {due: now() + ms, kind: 'setInterval', fn: fn, ms: ms});
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
    if (!recurring) state.frames.set(id, {kind: 'requestAnimationFrame', fn: fn});
    return id;
  };
  window.cancelAnimationFrame = function (id) {
    state.frames.delete(id);
    return native.caf.call(window, id);
  };
  if (native.ric) {
    window.requestIdleCallback = function (fn, options) {
      if (typeof fn !== 'function') return native.ric.call(window, fn, options);
      const c = state.current;
      const recurring = c !== null && c.kind === 'idle';
      const chain = {kind: 'idle', fn: fn, delay: 0};
      let id = 0;
      id = native.ric.call(window, function (deadline) {
        state.idle.delete(id);
        return invoke(fn, this, [deadline], recurring, chain);
      }, options);
      if (!recurring) state.idle.set(id, {kind: 'requestIdleCallback', fn: fn});
      return id;
    };
    window.cancelIdleCallback = function (id) {
      state.idle.delete(id);
      return native.cic.call(window, id);
    };
  }
  // Messages of a WebSocket or an EventSource: the first one of each channel counts like a
  // one-shot callback, later ones are recurring (a live feed is noise, not loading).
  function wrapChannel(Channel) {
    if (typeof Channel !== 'function') return;
    const proto = Channel.prototype;
    const heard = new WeakSet(), handlers = new WeakMap(), wrappers = new WeakMap();
    const wrap = (fn) => {
      if (typeof fn !== 'function') return fn;
      let wrapper = wrappers.get(fn);
      if (!wrapper) {
        const chain = {kind: 'message', fn: fn, delay: 0};
        wrapper = function (event) {
          const recurring = heard.has(this);
          heard.add(this);
          return invoke(fn, this, [event], recurring, chain);
        };
        wrappers.set(fn, wrapper);
      }
      return wrapper;
    };
    const add = proto.addEventListener, remove = proto.removeEventListener;
    proto.addEventListener = function (type, fn, options) {
      return add.call(this, type, type === 'message' ? wrap(fn) : fn, options);
    };
    proto.removeEventListener = function (type, fn, options) {
      const wrapper = type === 'message' && typeof fn === 'function' ? wrappers.get(fn) : null;
      return remove.call(this, type, wrapper || fn, options);
    };
    const slot = Object.getOwnPropertyDescriptor(proto, 'onmessage');
    if (slot && slot.set && slot.get) {
      Object.defineProperty(proto, 'onmessage', {
        configurable: true, enumerable: slot.enumerable,
        get() { return handlers.has(this) ? handlers.get(this) : slot.get.call(this); },
        set(fn) { handlers.set(this, fn); slot.set.call(this, wrap(fn)); },
      });
    }
  }
  wrapChannel(window.WebSocket);
  wrapChannel(window.EventSource);
  // A URL requested a third time is polled: that request and later ones are recurring, not
  // waited for (the first two are, so a retry of a failed request is still waited for).
  // Returns what ends the request's count: nothing for a polled URL.
  function requestStarted(url) {
    let key = '';
    try { key = new URL(String(url), document.baseURI).href; } catch (error) { key = ''; }
    const before = key ? (state.fetched.get(key) || 0) : 0;
    if (key) state.fetched.set(key, before + 1);
    if (before >= 2) {
      state.polls.add(key);
      return () => {};
    }
    state.requests += 1;
    const token = {};
    state.inflight.set(token, key || String(url));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      state.inflight.delete(token);
      state.requests = Math.max(0, state.requests - 1);
      state.lastRequestEnd = now();
    };
  }
  if (native.fetch) {
    window.fetch = function (...args) {
      const input = args[0];
      const ended = requestStarted(input && typeof input === 'object' && 'url' in input
        ? input.url : input);
      let promise;
      try {
        promise = native.fetch.apply(this, args);
      } catch (error) {
        ended();
        throw error;
      }
      promise.then(ended, ended);
      return promise;
    };
  }
  const xhrUrls = new WeakMap();
  XMLHttpRequest.prototype.open = function (...args) {
    xhrUrls.set(this, args[1]);
    return native.open.apply(this, args);
  };
  XMLHttpRequest.prototype.send = function (...args) {
    const ended = requestStarted(xhrUrls.get(this));
    this.addEventListener('loadend', ended, {once: true});
    try {
      return native.send.apply(this, args);
    } catch (error) {
      ended();
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
    // A media element still buffering, or a frame's, holds the load event back for as long
    // as its stream lasts; with every image in, the page itself has loaded (what is still
    // in flight is the capture's to judge).
    const loaded = document.readyState === 'complete' || (document.readyState === 'interactive'
      && [...document.images].every((img) => img.complete)
      && document.querySelector('video, audio, iframe') !== null);
    let timers = 0, nextDue = Infinity;
    const soon = [];
    if (s) {
      for (const entry of s.pending.values()) {
        if (entry.due - t <= horizonMs) {
          timers += 1;
          nextDue = Math.min(nextDue, entry.due - t);
          if (soon.length < 3) soon.push(entry);
        }
      }
    }
    const frames = s ? s.frames.size + s.idle.size : 0;
    const requests = s ? s.requests : 0;
    const quietFor = s ? t - Math.max(s.lastChange, s.lastRequestEnd) : 0;
    const ready = !!s && loaded && timers === 0 && frames === 0 && requests === 0
      && quietFor >= quietMs;
    if (ready || t - started >= maxWaitMs) {
      return {ready: ready, instrumented: !!s, loaded: loaded, timers: timers,
              nextDue: Number.isFinite(nextDue) ? Math.round(nextDue) : null,
              frames: frames, requests: requests, quietFor: Math.round(quietFor),
              changes: s ? s.changes : 0, noise: s ? s.noise : 0,
              recurring: s ? s.recurring : 0,
              polls: s ? [...s.polls].slice(0, 50) : [],
              // What is still going on, by name (the capture's reason for an unsettled page).
              pendingTimers: soon.map((entry) => s.timer(entry)),
              pendingFrames: s ? [...s.frames.values(), ...s.idle.values()].slice(0, 3)
                .map((entry) => s.timer(entry)) : [],
              pendingRequests: s ? [...s.inflight.values()].slice(0, 3) : [],
              changed: s ? s.where() : ''};
    }
    const wait = Math.min(Math.max(quietMs - quietFor, 16), 100);
    await new Promise((done) => later(done, wait));
  }
}"""
"""Waits in the page, up to ``maxWaitMs``, for the page's own work to finish; reports it,
naming the timers due soonest, the requests in flight and the node that changed last."""

PROBE = r"""async (maxChars) => {
  await document.fonts.ready;
  const s = window.__samepage;
  const root = document.documentElement, body = document.body;
  const height = Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0);
  const text = body ? body.innerText : (root ? root.innerText : "");
  // The URLs the page marks as itself (learner.render.marks): current or selected links, the
  // chosen value of a select or radio group, the canonical link and the alternate link of
  // the page's own language. At most 50, absolute; a form control stands for the URL its
  // form would submit with that one field.
  const marks = [];
  const add = (href) => {
    try {
      const url = new URL(href, document.baseURI);
      url.hash = '';
      if (marks.length < 50 && !marks.includes(url.href)) marks.push(url.href);
    } catch (error) { /* not a URL */ }
  };
  const marked = (e) => {
    const current = e.getAttribute('aria-current');
    return (current !== null && current !== 'false')
      || e.getAttribute('aria-selected') === 'true'
      || [...e.classList].some((c) => /^(is-)?(active|current|selected)$/i.test(c));
  };
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    if (marks.length >= 50) break;
    const li = a.parentElement && a.parentElement.tagName === 'LI' ? a.parentElement : null;
    if (marked(a) || (li && marked(li))) add(a.getAttribute('href'));
  }
  const field = (control, value) => {
    // A form's attributes, not its properties: a control named "action" or "method" (as in
    // MediaWiki's history form) shadows form.action and form.method.
    const form = control.form;
    if (form && (form.getAttribute('method') || 'get').toLowerCase() !== 'get') return;
    try {
      const url = new URL((form && form.getAttribute('action')) || location.href, document.baseURI);
      url.search = new URLSearchParams([[control.name, value]]).toString();
      add(url.href);
    } catch (error) { /* not a URL */ }
  };
  for (const select of document.querySelectorAll('select[name]')) {
    const option = select.selectedOptions[0];
    if (option && (option.defaultSelected || select.selectedIndex > 0)) field(select, option.value);
  }
  for (const radio of document.querySelectorAll('input[type=radio][name]:checked')) {
    field(radio, radio.value);
  }
  const lang = (document.documentElement.lang || '').toLowerCase().split('-')[0];
  let canonical = '';
  for (const link of document.querySelectorAll('link[href]')) {
    const rel = (link.getAttribute('rel') || '').toLowerCase().split(/\s+/);
    const hreflang = (link.getAttribute('hreflang') || '').toLowerCase().split('-')[0];
    if (rel.includes('canonical') || (rel.includes('alternate') && lang && hreflang === lang)) {
      add(link.getAttribute('href'));
    }
    if (rel.includes('canonical') && !canonical) {
      try {
        canonical = new URL(link.getAttribute('href'), document.baseURI).href;
      } catch (error) { /* not a URL */ }
    }
  }
  return {height: height, text: text.slice(0, maxChars), title: document.title,
          changes: s ? s.changes : -1, marks: marks, canonical: canonical};
}"""
"""One cheap capture: size, visible text (capped in the page), title, the count of DOM
changes that count as loading so far (to tell whether the page moved during a screenshot),
the URLs the page marks as itself (at most 50; :mod:`learner.render.marks` reads them) and
its first ``<link rel=canonical>``, absolute ("" without one)."""

MEASURE = r"""async () => {
  await document.fonts.ready;
  const s = window.__samepage;
  const root = document.documentElement, body = document.body;
  return {height: Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0),
          changes: s ? s.changes : -1, changed: s ? s.where() : ''};
}"""
"""The page's height (reading it lays the page out), its count of DOM changes that count
as loading and the node that changed last, once the fonts are in: what a screenshot is
taken at, and compared with afterwards. The readiness check that comes just before has
waited for two frames."""

SCROLL_THROUGH = r"""async ([limit, from]) => {
  const s = window.__samepage;
  const changes = () => (s ? s.changes : -1);
  const before = changes();
  const frame = (s ? s.native.raf : requestAnimationFrame).bind(window);
  const twoFrames = () => new Promise((done) => frame(() => frame(done)));
  const height = () => Math.min(limit, Math.max(
    document.documentElement ? document.documentElement.scrollHeight : 0,
    document.body ? document.body.scrollHeight : 0));
  if (from === 0 && height() <= window.innerHeight) {
    return {reached: window.innerHeight, height: height(), before: before, changes: before};
  }
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
  return {reached: reached, height: height(), before: before, changes: changes()};
}"""
"""Scrolls from ``from`` down to the capture height in steps of about a screen, one pair of
frames per step, so that sections loaded on view (lazy images, IntersectionObserver) start
loading; then back to the top. A page no taller than the viewport is not scrolled. Returns
how far it got, the page height then, and the DOM change count before and after."""

PREPARE_SHOT = r"""() => {
  const roots = [];
  const collect = (root) => {
    roots.push(root);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    do {
      const shadow = walker.currentNode instanceof Element ? walker.currentNode.shadowRoot : null;
      if (shadow) collect(shadow);
    } while (walker.nextNode());
  };
  collect(document);
  const paused = new Set();
  const still = (root) => {
    for (const animation of root.getAnimations()) {
      if (!animation.effect || animation.playbackRate === 0 || paused.has(animation)) continue;
      try {
        if (Number.isFinite(animation.effect.getComputedTiming().endTime)) {
          animation.finish();
        } else {
          animation.cancel();
          paused.add(animation);
        }
      } catch (e) {}
    }
  };
  const undo = [];
  for (const root of roots) {
    const onRoot = () => still(root);
    onRoot();
    root.addEventListener("transitionrun", onRoot);
    root.addEventListener("animationstart", onRoot);
    undo.push(() => {
      root.removeEventListener("transitionrun", onRoot);
      root.removeEventListener("animationstart", onRoot);
    });
  }
  undo.push(() => { for (const animation of paused) { try { animation.play(); } catch (e) {} } });
  window.__samepageShotDone = () => {
    for (const step of undo) step();
    delete window.__samepageShotDone;
  };
}"""
"""Run in every frame before a screenshot, as Playwright's ``animations="disabled"`` does:
finite CSS animations and transitions jump to their end, infinite ones are cancelled (both
again for any that start meanwhile), in the document and every shadow root."""

RESTORE_SHOT = "() => { if (window.__samepageShotDone) window.__samepageShotDone(); }"
"""Run in every frame after the screenshot: the cancelled animations play again."""

DOCUMENT_SIZE = r"""async () => {
  try { await document.fonts.ready; } catch (e) {}
  const body = document.body, root = document.documentElement;
  if (!body || !root) return null;
  return {
    width: Math.max(body.scrollWidth, root.scrollWidth, body.offsetWidth, root.offsetWidth,
                    body.clientWidth, root.clientWidth),
    height: Math.max(body.scrollHeight, root.scrollHeight, body.offsetHeight,
                     root.offsetHeight, body.clientHeight, root.clientHeight),
  };
}"""
"""Once the web fonts are in, the size of the document as Playwright's full-page screenshot
measures it (``null`` without a body): what the screenshot's clip is trimmed to."""
