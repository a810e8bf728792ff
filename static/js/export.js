// The Export section's copy buttons: <button data-copy="ID"> copies the text
// of the element with that id. One listener on the document serves every
// htmx swap; loading this file again does not add a second one.
(function () {
  "use strict";
  if (window.workbenchExportCopy) return;
  window.workbenchExportCopy = true;

  function copyWithSelection(text) {
    // For pages served over plain HTTP, where navigator.clipboard is absent.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const done = document.execCommand("copy");
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function say(button, label) {
    const original = button.dataset.label || button.textContent;
    button.dataset.label = original;
    button.textContent = label;
    setTimeout(() => { button.textContent = original; }, 1500);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = source.textContent;
    const copy = navigator.clipboard && window.isSecureContext
      ? navigator.clipboard.writeText(text)
      : copyWithSelection(text);
    copy.then(() => say(button, "Copied"), () => say(button, "Select and copy"));
  });
})();
