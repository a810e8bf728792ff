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
    const toast = document.createElement("div");
    toast.className = `toast toast-${level || "info"}`;
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
})();
