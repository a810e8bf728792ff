// The design editor's behaviour: the project version kept current after a
// save, refused edits swapped in, Escape to cancel, autocomplete of
// {attribute} placeholders in key templates, and fields shown only for the
// choices they belong to. Loaded with `defer`; no inline scripts.
(function () {
  "use strict";

  // A successful edit sends designSaved with the new version: every form on
  // the page now edits that version (another tab still has the old one and
  // is refused, as it should be), as the save's answer shows the section as
  // saved. An editor form holding input not yet saved is kept as typed (see
  // below): it stays at the version it was typed on, so that its save is
  // merged with what others changed since rather than putting it back.
  document.body.addEventListener("designSaved", (event) => {
    const version = String(event.detail.version);
    const kept = unsavedForms(document);
    document
      .querySelectorAll('input[name="version"], input[name$="-version"]')
      .forEach((input) => {
        if (!kept.includes(input.form)) input.value = version;
      });
    document.querySelectorAll("[data-project-version]").forEach((el) => {
      el.textContent = version;
    });
  });

  // 409 (someone saved first) and 503 (the database could not be reached)
  // answer with the form as typed and the reason, and 410 (someone removed
  // the element) with the section as it is now: swap them in like the 422
  // of invalid input. A 503 that could not render the form says so in a
  // toast and swaps nothing (HX-Reswap: none), keeping the form as typed.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if ([409, 410, 503].includes(event.detail.xhr.status)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // A section tab answered with a whole page (a section that has no
  // partial): load it as a page rather than nest it.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (target && target.id === "main" && /<html[\s>]/i.test(event.detail.serverResponse)) {
      event.detail.shouldSwap = false;
      window.location.href = event.detail.pathInfo.requestPath;
    }
  });

  // Nothing typed is lost without the user deciding. An editor form whose
  // fields differ from what the server sent, or that came back refused
  // (data-unsaved: its input as typed, not saved), is unsaved: moving elsewhere in the page (a tab, another
  // entity, Escape) asks first, and so does leaving or closing the page. Its
  // own Discard/Cancel link, clicked, is the user deciding.
  const EDITOR_FORMS = "form.editor-form";
  const sent = new WeakMap();

  // What the user can change in a form, disabled fields included (a field
  // the page disables, such as capacity under on-demand billing, is not an
  // edit of the user's).
  function fields(form) {
    const parts = [];
    for (const element of form.elements) {
      const name = element.name;
      if (!name || name === "csrfmiddlewaretoken" || name === "version") continue;
      if (name.endsWith("-version") || ["submit", "button"].includes(element.type)) continue;
      if (["checkbox", "radio"].includes(element.type) && !element.checked) continue;
      if (element.tagName === "SELECT" && element.multiple) {
        for (const option of element.selectedOptions) parts.push([name, option.value]);
        continue;
      }
      parts.push([name, element.value]);
    }
    return new URLSearchParams(parts).toString();
  }

  function rememberForms(root) {
    const forms = [...root.querySelectorAll(EDITOR_FORMS)];
    if (root.matches && root.matches(EDITOR_FORMS)) forms.push(root);
    forms.forEach((form) => {
      if (!sent.has(form)) sent.set(form, fields(form));
    });
  }

  function unsavedForms(root) {
    const forms = [...root.querySelectorAll(EDITOR_FORMS)];
    if (root.matches && root.matches(EDITOR_FORMS)) forms.push(root);
    return forms.filter(
      (form) =>
        !form.querySelector("fieldset[disabled]") &&
        (form.dataset.unsaved === "true" || (sent.has(form) && sent.get(form) !== fields(form))),
    );
  }

  function mayLeave(forms) {
    if (!forms.length) return true;
    const names = forms.map((form) => form.dataset.editing || "this form");
    return window.confirm(
      `Your changes to ${names.join(" and ")} are not saved. Leave them?`,
    );
  }

  // A save's answer brings the section's other parts as saved, out of band
  // (the Table & indexes page): a part holding an editor form not yet saved
  // keeps it as typed.
  document.body.addEventListener("htmx:oobBeforeSwap", (event) => {
    if (unsavedForms(event.detail.target).length) event.detail.shouldSwap = false;
  });

  rememberForms(document);
  document.body.addEventListener("htmx:load", (event) => rememberForms(event.target));
  let deciding = false; // the user clicked a Discard/Cancel link
  document.addEventListener(
    "click",
    (event) => {
      deciding = Boolean(event.target.closest && event.target.closest("[data-cancel]"));
    },
    true,
  );
  document.body.addEventListener("htmx:confirm", (event) => {
    const { elt, target } = event.detail;
    if (!target || deciding) {
      deciding = false;
      return;
    }
    const lost = unsavedForms(target).filter((form) => !form.contains(elt));
    if (!lost.length) return;
    event.preventDefault();
    if (mayLeave(lost)) {
      lost.forEach((form) => {
        form.dataset.unsaved = "false";
        sent.set(form, fields(form));
      });
      event.detail.issueRequest(true);
    }
  });
  let submitting = false;
  document.addEventListener("submit", () => {
    submitting = true;
    setTimeout(() => {
      submitting = false;
    }, 0);
  });
  window.addEventListener("beforeunload", (event) => {
    if (!submitting && unsavedForms(document).length) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  // A form that answers its own input with a new copy of itself (the
  // generator picker) keeps what the user typed while a request was on its
  // way: an answer to values that are no longer the form's (typed over
  // since, or from a copy already replaced) is dropped; the request the new
  // input scheduled answers instead. Its copy is swapped in with no settle
  // delay, so that it listens for input from the moment it shows.
  function formValues(form) {
    const values = new URLSearchParams(new FormData(form));
    values.sort();
    return values.toString();
  }
  const selfReplacing = (form) => form && form.matches && form.matches("form[data-self-replacing]");
  document.body.addEventListener("htmx:configRequest", (event) => {
    if (selfReplacing(event.detail.elt)) event.detail.sentValues = formValues(event.detail.elt);
  });
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const config = event.detail.requestConfig;
    const form = config && config.elt;
    if (!selfReplacing(form)) return;
    if (!form.isConnected || config.sentValues !== formValues(form)) {
      event.detail.shouldSwap = false;
    }
  });

  // The generator picker: Pick… opens it for its attribute row (name, type
  // and the generator as typed); Use writes the chosen generator into the
  // row's input, which updates the live preview.
  function rowInput(row, part) {
    return document.getElementById(`id_attr-${row}-${part}`);
  }
  document.addEventListener("click", (event) => {
    const pick = event.target.closest && event.target.closest("[data-generator-pick]");
    if (pick) {
      const dialog = document.getElementById("generator-picker");
      const row = pick.dataset.generatorPick;
      const params = new URLSearchParams({
        row,
        attr_name: rowInput(row, "name").value,
        attr_type: rowInput(row, "type").value,
        current: rowInput(row, "generator").value,
      });
      dialog.showModal();
      htmx.ajax("GET", `${dialog.dataset.pickerUrl}?${params}`, {
        target: "#generator-picker-body",
        swap: "outerHTML settle:0ms",
      });
      return;
    }
    const use = event.target.closest && event.target.closest("[data-generator-use]");
    if (use) {
      const input = rowInput(use.dataset.row, "generator");
      input.value = use.dataset.generatorUse;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
      use.closest("dialog").close();
      input.focus();
      return;
    }
    const close = event.target.closest && event.target.closest("[data-generator-close]");
    if (close) close.closest("dialog").close();
  });

  // After an edit conflict, Take theirs is the form's Discard/Cancel link.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-take-theirs]");
    const cancel = button && button.closest("form")?.querySelector("[data-cancel]");
    if (cancel) cancel.click();
  });

  // After an edit conflict over fields both people changed: "Use theirs"
  // puts the other person's value into the form's own input for it.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-use-theirs]");
    const form = button && button.closest("form");
    if (!form) return;
    const input = form.querySelector(`[name="${CSS.escape(button.dataset.useTheirs)}"]`);
    if (!input) return;
    if (input.type === "checkbox") input.checked = button.dataset.value === "yes";
    else input.value = button.dataset.value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
    button.closest("[data-conflict-field]")?.classList.add("is-resolved");
    input.focus();
  });

  // Ctrl+Z and Ctrl+Shift+Z (Cmd on a Mac) press Undo and Redo, outside
  // text fields (where they undo typing).
  document.addEventListener("keydown", (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.key.toLowerCase() !== "z") return;
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) {
      return;
    }
    const button = document.querySelector(event.shiftKey ? "[data-redo]" : "[data-undo]");
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // Escape cancels the form being edited (its [data-cancel] link), after
  // asking if it has unsaved input.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    if (document.querySelector(".autocomplete:not([hidden])")) return;
    const form = event.target.closest && event.target.closest("form, .confirm");
    const scope = form ? form.closest("section, li, form") : document;
    const cancel = (form && form.querySelector("[data-cancel]")) ||
      (scope && scope.querySelector("[data-cancel]"));
    if (!cancel) return;
    event.preventDefault();
    if (form && !mayLeave(unsavedForms(form))) return;
    cancel.click();
  });

  // Fields shown for one choice only: data-show-for-kind, -projection, -op,
  // -scaling; and hidden for one: data-hide-for-operation.
  function refreshVisibility(root) {
    root.querySelectorAll("form").forEach((form) => {
      const value = (suffix) => {
        const field = form.querySelector(`select[name$="${suffix}"]`);
        return field ? field.value : null;
      };
      const kind = value("kind");
      const projection = value("projection_type");
      const distribution = value("sample_distribution");
      const scaling = value("auto_scaling");
      // Capacity units mean something under provisioned billing only.
      const billing = value("billing_mode");
      form.querySelectorAll("[data-provisioned-only]").forEach((el) => {
        const onDemand = billing === "PAY_PER_REQUEST";
        el.classList.toggle("is-inapplicable", onDemand);
        el.querySelectorAll("input, select").forEach((input) => {
          if (!input.closest("fieldset[disabled]")) input.disabled = onDemand;
        });
      });
      form.querySelectorAll("[data-show-for-scaling]").forEach((el) => {
        if (scaling !== null) el.hidden = el.dataset.showForScaling !== scaling;
      });
      form.querySelectorAll("[data-show-for-distribution]").forEach((el) => {
        if (distribution !== null) {
          el.hidden = !el.dataset.showForDistribution.split(" ").includes(distribution);
        }
      });
      form.querySelectorAll("[data-show-for-kind]").forEach((el) => {
        if (kind !== null) el.hidden = el.dataset.showForKind !== kind;
      });
      form.querySelectorAll("[data-show-for-projection]").forEach((el) => {
        if (projection !== null) el.hidden = el.dataset.showForProjection !== projection;
      });
      const operation = form.querySelector("select[data-pattern-operation]");
      form.querySelectorAll("[data-hide-for-operation]").forEach((el) => {
        if (operation) el.hidden = operation.value === el.dataset.hideForOperation;
      });
      form.querySelectorAll(".sort-clause").forEach((clause) => {
        const op = clause.querySelector("select");
        clause.querySelectorAll("[data-show-for-op]").forEach((el) => {
          el.hidden = !op || op.value !== el.dataset.showForOp;
        });
      });
      form.querySelectorAll("[data-key-row]").forEach((row) => {
        const mode = row.querySelector('select[name$="-mode"]');
        if (!mode) return;
        row.dataset.mode = mode.value;
      });
    });
  }
  document.addEventListener("change", () => refreshVisibility(document));
  document.body.addEventListener("htmx:afterSettle", () => refreshVisibility(document));
  refreshVisibility(document);

  // Autocomplete of {attribute} in template inputs: typing "{" lists the
  // entity's attributes (as typed in the same form); arrows choose, Enter
  // or Tab inserts, Escape closes.
  const list = document.createElement("ul");
  list.className = "autocomplete";
  list.setAttribute("role", "listbox");
  list.id = "template-autocomplete";
  list.hidden = true;
  document.body.append(list);
  let active = null;
  let choice = 0;

  // htmx keeps a copy of the page for the back button: leave the list out of
  // it (its position is an inline style, which the Content-Security-Policy
  // refuses when the copy is restored), and put it back after.
  document.body.addEventListener("htmx:beforeHistorySave", () => {
    close();
    list.remove();
    queueMicrotask(() => document.body.append(list));
  });
  document.body.addEventListener("htmx:historyRestore", () => {
    if (!list.isConnected) document.body.append(list);
  });

  function attributeNames(form) {
    const typed = [...form.querySelectorAll("input.attr-name")]
      .map((input) => input.value.trim())
      .filter(Boolean);
    const params = [...form.querySelectorAll('input[name*="param-"][name$="-name"]')]
      .map((input) => input.value.trim())
      .filter(Boolean);
    // The pattern form names the design's attributes in data-attributes.
    const declared = (form.dataset.attributes || "").split(" ").filter(Boolean);
    return [...new Set([...typed, ...params, ...declared])];
  }

  function openPrefix(input) {
    const before = input.value.slice(0, input.selectionStart);
    const match = /\{([A-Za-z0-9_.-]*)$/.exec(before);
    return match ? match[1] : null;
  }

  function close() {
    list.hidden = true;
    if (active) active.removeAttribute("aria-activedescendant");
    active = null;
  }

  function show(input) {
    const prefix = openPrefix(input);
    const form = input.closest("form");
    if (prefix === null || !form) return close();
    const names = attributeNames(form).filter((name) =>
      name.toLowerCase().startsWith(prefix.toLowerCase()),
    );
    if (!names.length) return close();
    active = input;
    choice = Math.min(choice, names.length - 1);
    list.replaceChildren(
      ...names.map((name, index) => {
        const item = document.createElement("li");
        item.id = `template-option-${index}`;
        item.setAttribute("role", "option");
        item.textContent = name;
        item.dataset.name = name;
        if (index === choice) item.setAttribute("aria-selected", "true");
        item.addEventListener("mousedown", (event) => {
          event.preventDefault();
          insert(name);
        });
        return item;
      }),
    );
    const box = input.getBoundingClientRect();
    list.style.left = `${box.left + window.scrollX}px`;
    list.style.top = `${box.bottom + window.scrollY + 2}px`;
    list.style.minWidth = `${Math.min(box.width, 260)}px`;
    list.hidden = false;
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-activedescendant", `template-option-${choice}`);
  }

  function insert(name) {
    const input = active;
    if (!input) return;
    const cursor = input.selectionStart;
    const before = input.value.slice(0, cursor).replace(/\{[A-Za-z0-9_.-]*$/, "");
    const after = input.value.slice(cursor).replace(/^[A-Za-z0-9_.-]*\}?/, "");
    input.value = `${before}{${name}}${after}`;
    const position = before.length + name.length + 2;
    input.setSelectionRange(position, position);
    close();
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener("input", (event) => {
    if (event.target.matches && event.target.matches("input.template-input")) {
      choice = 0;
      show(event.target);
    }
  });
  document.addEventListener("focusout", (event) => {
    if (event.target === active) setTimeout(close, 100);
  });
  document.addEventListener(
    "keydown",
    (event) => {
      if (!active || list.hidden || event.target !== active) return;
      const options = [...list.children];
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        choice = (choice + (event.key === "ArrowDown" ? 1 : -1) + options.length) % options.length;
        show(active);
      } else if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        event.stopPropagation();
        insert(options[choice].dataset.name);
      } else if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        close();
      }
    },
    true,
  );
})();

// ==== Editor polish (issue 39, items 12 and 13) ===========================
(function () {
  "use strict";

  // A pattern's form shows the fields of reads (index, projection, what it
  // must return) only while its operation is a read; the operation's own
  // fields are re-rendered by the server, these sit outside them. Runs
  // after refreshVisibility (registered before), which hides the index of
  // a pattern not keyed yet.
  function showReadsOnly() {
    document.querySelectorAll("form[data-write-operations]").forEach((form) => {
      const operation = form.querySelector("select[data-pattern-operation]");
      if (!operation) return;
      const write = form.dataset.writeOperations.split(" ").includes(operation.value);
      form.querySelectorAll("[data-reads-only]").forEach((el) => {
        if (write) el.hidden = true;
        else if (!el.dataset.hideForOperation) el.hidden = false;
      });
    });
  }
  document.addEventListener("change", showReadsOnly);
  document.body.addEventListener("htmx:afterSettle", showReadsOnly);

  // The skip link lands past the project's tabs, on the section's work
  // (the entity's editor on Entities); elsewhere, on <main> (its href).
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("[data-skip-link]");
    const start = link && document.querySelector("[data-section-start]");
    if (!start) return;
    event.preventDefault();
    start.focus({ preventScroll: true });
    start.scrollIntoView({ block: "start" });
  });

  // A child entity offers its parent's key attributes: the group of the
  // parent chosen in "Sample items are made" shows, and a click writes the
  // attribute into its row (the row of that name, else the first blank
  // one) with a {ref: Parent.attribute} generator.
  document.addEventListener("change", (event) => {
    if (!event.target.matches || !event.target.matches('select[name$="sample_per"]')) return;
    const form = event.target.form;
    form.querySelectorAll("[data-parent-refs]").forEach((group) => {
      group.hidden = group.dataset.parentRefs !== event.target.value;
    });
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-parent-ref]");
    if (!button) return;
    const names = [...button.form.querySelectorAll('input[name^="attr-"][name$="-name"]')];
    const row =
      names.find((input) => input.value.trim() === button.dataset.refName) ||
      names.find((input) => !input.value.trim());
    if (!row) return;
    const prefix = row.name.slice(0, -"name".length);
    const set = (part, value) => {
      const field = button.form.elements[prefix + part];
      field.value = value;
      field.dispatchEvent(new Event("input", { bubbles: true }));
      field.dispatchEvent(new Event("change", { bubbles: true }));
    };
    set("name", button.dataset.refName);
    set("type", button.dataset.refType);
    set("generator", button.dataset.parentRef);
    button.form.elements[prefix + "generator"].focus();
  });

  // Escape inside an open dialog closes the dialog only, and the browser
  // gives focus back to the button that opened it: the form around it (the
  // entity's, for the generator picker) must not take it as Discard, which
  // swapped the editor away and dropped focus to the top of the page.
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key === "Escape" && event.target.closest && event.target.closest("dialog[open]")) {
        event.stopPropagation();
      }
    },
    true,
  );
})();
