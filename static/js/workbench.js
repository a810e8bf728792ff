// Behaviour shared by every page. Loaded with `defer` from _base.html; no
// inline scripts, so a strict Content-Security-Policy can forbid them.
(function () {
  "use strict";

  const TOAST_LIFETIME_MS = { error: 10000, warning: 7000, default: 4000 };
  const TOAST_FADE_MS = 300;

  function dismiss(toast) {
    toast.classList.add("is-leaving");
    setTimeout(() => toast.remove(), TOAST_FADE_MS);
  }

  function dismissLater(toast) {
    const level = [...toast.classList]
      .find((name) => name.startsWith("toast-"))
      ?.slice("toast-".length);
    const lifetime = TOAST_LIFETIME_MS[level] ?? TOAST_LIFETIME_MS.default;
    setTimeout(() => dismiss(toast), lifetime);
    toast.addEventListener("click", () => dismiss(toast), { once: true });
  }

  function showToast({ message, level }) {
    const className = `toast toast-${level || "info"}`;
    // A message can reach two responses at once (a form's redirect and a
    // progress poll sent before it consumed it): it is shown once.
    const shown = [...document.querySelectorAll("#toasts .toast")].some(
      (toast) =>
        toast.className === className && toast.textContent === message,
    );
    if (shown) return;
    const toast = document.createElement("div");
    toast.className = className;
    toast.textContent = message;
    document.getElementById("toasts").append(toast);
    dismissLater(toast);
  }

  // Messages rendered by the server on a full page load.
  document.querySelectorAll("#toasts .toast").forEach(dismissLater);

  // Messages sent with an htmx response (see workbench/middleware.py).
  document.body.addEventListener("showMessage", (event) => {
    (event.detail.messages || []).forEach(showToast);
  });

  // <form data-confirm="Delete this entity?"> asks before submitting. This
  // listens in the capture phase so that it also stops htmx-driven forms.
  document.addEventListener(
    "submit",
    (event) => {
      const question = event.target.dataset.confirm;
      if (question && !window.confirm(question)) {
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true,
  );

  // A 422 response to an htmx form is the form again with its errors: swap
  // it in like a success (htmx leaves 4xx responses out by default).
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.xhr.status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // The refused form's first error may be far above the button that was
  // clicked: bring it into view, and its input under the cursor (a form
  // that met the database restarting, 503, says so at its top).
  document.body.addEventListener("htmx:afterSettle", (event) => {
    if (![422, 503].includes(event.detail.xhr?.status)) return;
    // An outerHTML swap settles on the element it replaced: look in the page.
    const swapped = event.detail.elt;
    const scope = swapped instanceof Element && swapped.isConnected ? swapped : document;
    const invalid = scope.querySelector(".field-invalid, .form-alert");
    if (!invalid) return;
    invalid.scrollIntoView({ block: "center" });
    const input = invalid.querySelector("input:not([type=hidden]), select, textarea");
    if (input) input.focus({ preventScroll: true });
  });

  // The Simulation page loads each pattern's result by its own request. The
  // summary counts the verdicts on the page once every result has arrived.
  function plural(count, one, many) {
    return count === 1 ? one : many;
  }

  function summariseSimulation() {
    const summary = document.querySelector("[data-simulation-summary]");
    if (!summary) return;
    const total = Number(summary.dataset.total);
    const results = [...document.querySelectorAll(".sim-pattern [data-verdict]")];
    summary.hidden = false;
    summary.replaceChildren();
    if (results.length < total) {
      summary.className = "sim-summary is-running";
      summary.textContent = `Running… ${results.length} of ${total} done`;
      return;
    }
    const count = (verdict) =>
      results.filter((result) => result.dataset.verdict === verdict).length;
    const passed = count("pass");
    const failed = count("fail");
    const errors = count("error");
    // Those a cancelled or replaced job never reached: neither passed nor
    // wrong, just not looked at.
    const unrun = count("not-run");
    const parts = [
      `${passed} of ${total} ${plural(total, "pattern passes", "patterns pass")}`,
    ];
    if (failed) parts.push(`${failed} ${plural(failed, "fails", "fail")}`);
    if (errors) parts.push(`${errors} ${plural(errors, "error", "errors")}`);
    if (unrun) parts.push(`${unrun} not run`);
    summary.className = `sim-summary ${passed === total ? "is-pass" : "is-fail"}`;
    summary.append(parts.join(", "));
    // Links to the patterns that did not pass.
    const others = results.filter((result) => result.dataset.verdict !== "pass");
    others.forEach((result, index) => {
      const section = result.closest(".sim-pattern");
      const link = document.createElement("a");
      link.href = `#${section.id}`;
      link.textContent = section.querySelector("h3").textContent;
      summary.append(index === 0 ? ": " : ", ", link);
    });
  }

  // A result that could not be loaded says so instead of running forever.
  function showLoadFailure(event) {
    const placeholder = event.detail.elt;
    if (!placeholder.closest(".sim-pattern")) return;
    const status = event.detail.xhr?.status;
    const verdict = document.createElement("p");
    verdict.className = "verdict verdict-error";
    verdict.textContent = status
      ? `The result could not be loaded (HTTP ${status}). `
      : "The result could not be loaded: the server did not answer. ";
    const link = placeholder.querySelector("a");
    if (link) {
      const retry = link.cloneNode();
      retry.textContent = "Open it";
      verdict.append(retry);
    }
    const result = document.createElement("div");
    result.className = "sim-result";
    result.dataset.verdict = "error";
    result.append(verdict);
    placeholder.replaceWith(result);
    summariseSimulation();
  }

  // A project deleted, or the user taken off its members, while one of its
  // pages is open: the page's polls and saves are answered 404 with
  // X-Project-Gone. Say so once at the top, swap nothing (what is typed
  // stays) and stop the polls; in DEBUG too, where django-htmx would put
  // Django's 404 page in place of the user's.
  document.body.addEventListener("htmx:beforeOnLoad", (event) => {
    const xhr = event.detail.xhr;
    if (xhr.status !== 404 || !xhr.getResponseHeader("X-Project-Gone")) return;
    event.preventDefault();
    event.stopPropagation();
    showProjectGone();
  });

  function showProjectGone() {
    // htmx polls only what is in the page: put a copy without its polling
    // in its place. (An answer still on its way to the one taken out would
    // no longer reach the body's listener: drop it there.)
    for (const poll of document.querySelectorAll('[hx-trigger*="every"]')) {
      poll.addEventListener("htmx:beforeOnLoad", (late) => late.preventDefault());
      const still = poll.cloneNode(true);
      for (const name of ["hx-trigger", "hx-get", "hx-post"]) still.removeAttribute(name);
      poll.replaceWith(still);
    }
    if (document.getElementById("project-gone")) return;
    const notice = document.createElement("div");
    notice.id = "project-gone";
    notice.className = "alert alert-error";
    notice.setAttribute("role", "alert");
    notice.textContent =
      "This project is no longer open to you: it was deleted, or you were " +
      "taken off its members. What you typed is still on this page, but " +
      "nothing more can be saved here. ";
    const projects = document.createElement("a");
    projects.href = "/";
    projects.textContent = "Your projects";
    notice.append(projects);
    (document.querySelector("main") || document.body).prepend(notice);
    notice.scrollIntoView({ block: "nearest" });
  }

  document.body.addEventListener("htmx:afterSettle", summariseSimulation);
  document.body.addEventListener("htmx:responseError", showLoadFailure);
  document.body.addEventListener("htmx:sendError", showLoadFailure);
  summariseSimulation();

  // The answer to a request whose element has left the page (a section's
  // review findings, when the user moved to another section before they
  // arrived; a tab or an entity clicked before another one whose answer
  // came first) has nowhere to go, nor the parts it sends out of band: drop
  // it, so that answers coming back out of order never show one section
  // under another's URL.
  // Not aborted: htmx logs an abort as a console error.
  // (A removed element's events no longer reach the body: listen on it.)
  document.body.addEventListener("htmx:beforeCleanupElement", (event) => {
    const element = event.target;
    if (!(element instanceof Element) || !element.matches("[hx-get], [hx-post]")) return;
    element.addEventListener("htmx:beforeOnLoad", (loaded) => {
      if (!element.isConnected) loaded.preventDefault();
    });
  });

  // Presentation mode: the page holds the slides near the current one;
  // the arrow keys, Page Up and Page Down (what a presenter's remote
  // sends) and the Previous and Next links show them at once, the address
  // following; past the slides held, the link loads the next page. F (or
  // the button) shows it full screen.
  const SLIDES = "[data-deck] [data-slide]";
  function currentSlide() {
    return document.querySelector(`${SLIDES}:not([hidden])`);
  }
  function showSlide(slide) {
    document.querySelectorAll(SLIDES).forEach((other) => {
      other.hidden = other !== slide;
    });
    if (location.pathname !== slide.dataset.url) {
      history.replaceState(history.state, "", slide.dataset.url);
    }
    document.title = slide.dataset.title;
  }
  function step(forward) {
    const current = currentSlide();
    const link = current && current.querySelector(forward ? "[data-next]" : "[data-prev]");
    if (!link) return false;
    const wanted = Number(current.dataset.slide) + (forward ? 1 : -1);
    const slide = document.querySelector(`${SLIDES}[data-slide="${wanted}"]`);
    if (slide) showSlide(slide);
    else location.assign(link.href);
    return true;
  }
  const fullScreen = () => {
    if (!document.fullscreenElement) document.documentElement.requestFullscreen?.();
  };
  document.addEventListener("keydown", (event) => {
    if (!currentSlide() || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    const onControl = target.closest && target.closest("a, button, summary");
    const forward = ["ArrowRight", "PageDown"].includes(event.key) || (event.key === " " && !onControl);
    const back = ["ArrowLeft", "PageUp"].includes(event.key);
    if (forward || back) {
      if (step(forward)) event.preventDefault();
    } else if (event.key === "f" || event.key === "F") {
      fullScreen();
    }
  });
  document.addEventListener("click", (event) => {
    const control = event.target.closest && event.target.closest("[data-deck] [data-next], [data-deck] [data-prev], [data-deck] [data-fullscreen]");
    if (!control || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    if (control.matches("[data-fullscreen]")) fullScreen();
    else step(control.matches("[data-next]"));
  });
  // The deck asks again while the simulation runs: for the slide shown now,
  // which the answer then shows.
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (event.detail.elt.matches && event.detail.elt.matches("[data-deck]") && event.detail.verb === "get") {
      event.detail.path = location.pathname;
    }
  });
  document.body.addEventListener("htmx:afterSettle", () => {
    const wanted = document.querySelector(`${SLIDES}[data-url="${location.pathname}"]`);
    if (wanted && wanted.hidden) showSlide(wanted);
  });

  // Diagrams zoom (buttons, Ctrl + wheel), pan (drag) and fit the screen,
  // and go full screen. The SVG's width and height attributes carry the
  // zoom (no inline style: the Content-Security-Policy forbids it).
  function natural(svg) {
    const box = svg.viewBox && svg.viewBox.baseVal;
    return box && box.width ? { width: box.width, height: box.height } : null;
  }
  function zoom(diagram, how) {
    const svg = diagram.querySelector("svg");
    const size = svg && natural(svg);
    if (!size) return;
    const current = Number(diagram.dataset.scale || 0) || svg.getBoundingClientRect().width / size.width;
    let scale = { in: current * 1.25, out: current / 1.25, actual: 1 }[how];
    if (how === "fit") {
      scale = Math.min(diagram.clientWidth / size.width, (diagram.clientHeight || window.innerHeight) / size.height);
    }
    scale = Math.min(Math.max(scale, 0.1), 8);
    diagram.dataset.scale = String(scale);
    diagram.classList.remove("diagram-fit");
    svg.setAttribute("width", String(Math.round(size.width * scale)));
    svg.setAttribute("height", String(Math.round(size.height * scale)));
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-zoom], [data-diagram-fullscreen]");
    if (!button) return;
    const diagram = button.closest(".diagram-results")?.querySelector("[data-diagram]");
    if (!diagram) return;
    if (button.dataset.zoom) zoom(diagram, button.dataset.zoom);
    else diagram.requestFullscreen?.().then(() => zoom(diagram, "fit"));
  });
  document.addEventListener(
    "wheel",
    (event) => {
      const diagram = event.ctrlKey && event.target.closest && event.target.closest("[data-diagram]");
      if (!diagram) return;
      event.preventDefault();
      zoom(diagram, event.deltaY < 0 ? "in" : "out");
    },
    { passive: false },
  );
  let drag = null;
  document.addEventListener("pointerdown", (event) => {
    const diagram = event.target.closest && event.target.closest("[data-diagram]");
    if (!diagram || event.button !== 0) return;
    drag = { diagram, x: event.clientX, y: event.clientY, left: diagram.scrollLeft, top: diagram.scrollTop };
    diagram.classList.add("is-panning");
  });
  document.addEventListener("pointermove", (event) => {
    if (!drag) return;
    drag.diagram.scrollLeft = drag.left - (event.clientX - drag.x);
    drag.diagram.scrollTop = drag.top - (event.clientY - drag.y);
  });
  document.addEventListener("pointerup", () => {
    if (drag) drag.diagram.classList.remove("is-panning");
    drag = null;
  });

  // Key templates wrap between their parts, never inside a {placeholder}:
  // each placeholder in code becomes an unbreakable span.
  const PLACEHOLDER = /\{[A-Za-z0-9_.:-]+\}/g;
  function keepPlaceholdersWhole(root) {
    const element = root.nodeType === Node.ELEMENT_NODE ? root : document.body;
    {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const nodes = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (
          parent &&
          // SVG text draws no HTML span: a diagram's templates stay as drawn.
          !parent.closest(".placeholder, pre, textarea, script, style, option, svg") &&
          PLACEHOLDER.test(node.textContent)
        ) {
          nodes.push(node);
        }
        PLACEHOLDER.lastIndex = 0;
      }
      nodes.forEach((node) => {
        const parts = [];
        let last = 0;
        for (const match of node.textContent.matchAll(PLACEHOLDER)) {
          parts.push(document.createTextNode(node.textContent.slice(last, match.index)));
          const span = document.createElement("span");
          span.className = "placeholder";
          span.textContent = match[0];
          parts.push(span);
          last = match.index + match[0].length;
        }
        parts.push(document.createTextNode(node.textContent.slice(last)));
        node.replaceWith(...parts);
      });
    }
  }
  keepPlaceholdersWhole(document);
  document.body.addEventListener("htmx:load", (event) => keepPlaceholdersWhole(event.target));

  // htmx keeps a copy of the page for the back button, and the
  // Content-Security-Policy refuses inline style when the copy is restored:
  // leave out the empty style attributes a browser or a tool may leave on
  // elements (scripts that position something remove it themselves).
  document.body.addEventListener("htmx:beforeHistorySave", () => {
    document.querySelectorAll("[style]").forEach((element) => {
      if (!element.getAttribute("style").trim()) element.removeAttribute("style");
    });
  });

  // A link to something inside a closed <details> opens it: browsers do not
  // all do so when following a fragment.
  function openTarget() {
    const target = location.hash && document.getElementById(location.hash.slice(1));
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    if (target) target.scrollIntoView();
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();
