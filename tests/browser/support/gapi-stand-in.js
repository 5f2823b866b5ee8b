/*
 * A stand-in for https://apis.google.com/js/api.js, served to the browser by the browser tests because
 * the machine has no internet. It implements the part of the Google API loader that Firebase Auth's
 * popup sign-in uses, on both ends of the conversation:
 *
 * - in the app page: `gapi.load("gapi.iframes", {callback})`, then `gapi.iframes.getContext().open(...)`
 *   which inserts the Auth emulator's helper iframe (`/emulator/auth/iframe`), and on the returned
 *   iframe `restyle`, `ping`, `register("authEvent", ...)` and `send("webStorageSupport", ...)`;
 * - in that helper iframe: `window.gapi_onload`, `gapi.load`, and
 *   `gapi.iframes.getContext().getParentIframe()` with `register` and `send`.
 *
 * Both ends talk with `postMessage`. A `send` is answered with an array holding the handler's result
 * (as gapi answers with one result per frame), which is what Firebase and the emulator read
 * (`result[0].webStorageSupport`, `responses[last].status === "ACK"`). Messages for a type without a
 * handler yet are held until one is registered: the helper iframe sends its first `authEvent` as soon
 * as it loads, before Firebase has registered its handler. Messages are accepted only from the expected
 * window (the inserted iframe, or the parent) and, on the app side, from the iframe's origin.
 */
/* global window, document */
(function () {
  "use strict";

  var MARK = "__gapiStandIn";
  var PING_INTERVAL_MS = 50;
  var gapi = (window.gapi = window.gapi || {});
  var nextId = 1;

  function crossOriginIframesFilter() {
    return true;
  }

  function isOurs(data) {
    return typeof data === "object" && data !== null && data[MARK] === true;
  }

  /** One end of a conversation with another window: handlers, held requests and pending replies. */
  function Channel(getTarget) {
    this.getTarget = getTarget;
    this.targetOrigin = null;
    this.handlers = {};
    this.heldRequests = {};
    this.pendingReplies = {};
    this.outbox = [];
    this.connected = false;
    this.connectWaiters = [];
  }

  Channel.prototype.post = function (message) {
    message[MARK] = true;
    if (!this.connected) {
      this.outbox.push(message);
      return;
    }
    this.getTarget().postMessage(message, this.targetOrigin);
  };

  Channel.prototype.connect = function (origin) {
    if (this.connected) return;
    this.targetOrigin = origin;
    this.connected = true;
    var outbox = this.outbox.splice(0);
    for (var i = 0; i < outbox.length; i++) this.getTarget().postMessage(outbox[i], origin);
    var waiters = this.connectWaiters.splice(0);
    for (var j = 0; j < waiters.length; j++) waiters[j]();
  };

  Channel.prototype.register = function (type, handler) {
    this.handlers[type] = handler;
    var held = this.heldRequests[type] || [];
    delete this.heldRequests[type];
    for (var i = 0; i < held.length; i++) this.answer(held[i]);
  };

  Channel.prototype.unregister = function (type) {
    delete this.handlers[type];
  };

  Channel.prototype.send = function (type, data, callback) {
    var id = nextId++;
    if (typeof callback === "function") this.pendingReplies[id] = callback;
    this.post({ kind: "request", id: id, type: type, data: data });
  };

  Channel.prototype.answer = function (request) {
    var handler = this.handlers[request.type];
    if (!handler) {
      (this.heldRequests[request.type] = this.heldRequests[request.type] || []).push(request);
      return;
    }
    Promise.resolve()
      .then(() => handler(request.data))
      .then(
        (result) => this.post({ kind: "reply", id: request.id, data: [result] }),
        (error) => {
          console.error("gapi stand-in: handler for " + request.type + " failed", error);
          this.post({ kind: "reply", id: request.id, data: [] });
        },
      );
  };

  Channel.prototype.receive = function (message) {
    if (message.kind === "request") {
      this.answer(message);
    } else if (message.kind === "reply") {
      var callback = this.pendingReplies[message.id];
      delete this.pendingReplies[message.id];
      if (callback) {
        try {
          callback(message.data);
        } catch (error) {
          // gapi isolates callers from their callbacks' exceptions; so does the stand-in.
          console.debug("gapi stand-in: reply callback threw", error);
        }
      }
    }
  };

  /** The app side of an inserted iframe (`gapi.iframes.Iframe`). */
  function Iframe(element, origin) {
    this.element = element;
    this.origin = origin;
    this.channel = new Channel(() => this.element.contentWindow);
    this.pinging = null;
  }

  Iframe.prototype.getIframeEl = function () {
    return this.element;
  };
  Iframe.prototype.getSiteEl = function () {
    return this.element.parentNode;
  };
  Iframe.prototype.getWindow = function () {
    return this.element.contentWindow;
  };
  Iframe.prototype.getOrigin = function () {
    return this.origin;
  };
  Iframe.prototype.register = function (type, handler) {
    this.channel.register(type, handler);
  };
  Iframe.prototype.unregister = function (type) {
    this.channel.unregister(type);
  };
  Iframe.prototype.send = function (type, data, callback) {
    this.channel.send(type, data, callback);
  };
  Iframe.prototype.restyle = function (style, callback) {
    // Only `setHideOnLeave` is ever asked for, which has no meaning for a hidden helper iframe.
    if (typeof callback === "function") callback([true]);
    return Promise.resolve([true]);
  };

  /** Resolves once the page inside the iframe has loaded the loader and opened its side of the channel. */
  Iframe.prototype.ping = function (callback, data) {
    return new Promise((resolve) => {
      const done = () => {
        if (typeof callback === "function") callback([true]);
        resolve([true]);
      };
      if (this.channel.connected) return done();
      this.channel.connectWaiters.push(done);
      if (this.pinging !== null) return;
      const sendPing = () => {
        const target = this.element.contentWindow;
        if (this.channel.connected) {
          window.clearInterval(this.pinging);
        } else if (target) {
          target.postMessage(
            { [MARK]: true, kind: "ping", data: data === undefined ? null : data },
            this.origin,
          );
        }
      };
      this.pinging = window.setInterval(sendPing, PING_INTERVAL_MS);
      sendPing();
    });
  };

  var openedIframes = [];
  var parentChannel = null;

  /** `gapi.iframes.Context`: opens iframes (app side) and reaches the parent (iframe side). */
  function Context() {}

  Context.prototype.open = function (options, callback) {
    var element = document.createElement("iframe");
    var attributes = options.attributes || {};
    Object.keys(attributes).forEach(function (name) {
      var value = attributes[name];
      if (name === "style" && typeof value === "object") {
        Object.keys(value).forEach(function (property) {
          element.style[property] = value[property];
        });
      } else {
        element.setAttribute(name, String(value));
      }
    });
    var url = new URL(options.url, window.location.href);
    var iframe = new Iframe(element, url.origin);
    openedIframes.push(iframe);
    element.src = url.href;
    (options.where || document.body).appendChild(element);
    var result = typeof callback === "function" ? callback(iframe) : iframe;
    return Promise.resolve(result).then(function () {
      return iframe;
    });
  };

  Context.prototype.getParentIframe = function () {
    if (window.parent === window) throw new Error("gapi stand-in: this page is not inside an iframe");
    if (parentChannel === null) {
      parentChannel = new Channel(function () {
        return window.parent;
      });
    }
    var channel = parentChannel;
    return {
      register: function (type, handler) {
        channel.register(type, handler);
      },
      unregister: function (type) {
        channel.unregister(type);
      },
      send: function (type, data, callback) {
        channel.send(type, data, callback);
      },
      ping: function (callback) {
        if (typeof callback === "function") callback([true]);
        return Promise.resolve([true]);
      },
    };
  };

  var context = new Context();

  window.addEventListener("message", function (event) {
    var message = event.data;
    if (!isOurs(message)) return;

    if (event.source === window.parent && window.parent !== window) {
      // Iframe side: the parent pings until this page has opened its channel, then talks over it.
      if (parentChannel === null) return;
      if (message.kind === "ping") {
        parentChannel.connect(event.origin);
        window.parent.postMessage({ [MARK]: true, kind: "pong" }, event.origin);
        return;
      }
      if (event.origin === parentChannel.targetOrigin) parentChannel.receive(message);
      return;
    }

    // App side: messages from one of the iframes we opened, from its own origin.
    for (var i = 0; i < openedIframes.length; i++) {
      var iframe = openedIframes[i];
      if (event.source !== iframe.element.contentWindow || event.origin !== iframe.origin) continue;
      if (message.kind === "pong") iframe.channel.connect(iframe.origin);
      else iframe.channel.receive(message);
      return;
    }
  });

  var iframesModule = {
    getContext: function () {
      return context;
    },
    Context: Context,
    Iframe: Iframe,
    CROSS_ORIGIN_IFRAMES_FILTER: crossOriginIframesFilter,
  };

  /** `gapi.load(features, callbackOrOptions)`: only the `gapi.iframes` module exists here. */
  gapi.load = function (features, options) {
    var callback = typeof options === "function" ? options : options && options.callback;
    var onerror = options && typeof options === "object" ? options.onerror : undefined;
    var unknown = String(features)
      .split(":")
      .filter(function (feature) {
        return feature !== "gapi.iframes";
      });
    window.setTimeout(function () {
      if (unknown.length > 0) {
        var error = new Error("gapi stand-in: unavailable modules " + unknown.join(", "));
        if (typeof onerror === "function") onerror(error);
        else console.error(error);
        return;
      }
      gapi.iframes = iframesModule;
      if (typeof callback === "function") callback();
    }, 0);
  };

  // The loader announces itself through `?onload=<name>` on its URL and through `window.gapi_onload`.
  var script = document.currentScript;
  var onloadName = script && script.src ? new URL(script.src).searchParams.get("onload") : null;
  window.setTimeout(function () {
    if (onloadName && typeof window[onloadName] === "function") window[onloadName]();
    if (typeof window.gapi_onload === "function") window.gapi_onload();
  }, 0);
})();
