// The card table of canasta-tutor (canasta_tutor/widgets/table.py): an anywidget module, shipped in the package.
// It draws the model's `view` (or a replay's `frames[frame]`), keeps the selected cards in `selected`, and sends
// {event: "press", kind, selected, target} when a move is played. Nothing is fetched from anywhere.

const BUBBLE_MS = 6000; // how long a move stays shown where it happened
const FLASH_MS = 2500;

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "html") el.innerHTML = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

// Every word the table writes comes from Python, already in the page's language: the model's `words` (labels,
// buttons, the keys' help) and the view's own texts (counts, headings, the pile in words). A "{name}" in a word is
// filled in here with a value (the selected cards, a move's label, a replay's step), never with a word of its own.
function fill(pattern, values) {
  return String(pattern || "").replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

let uid = 0;

function render({ model, el }) {
  const id = `ctt${++uid}`;
  const root = h("div", { class: "ctt" });
  const live = h("div", { class: "ctt-sr ctt-live", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  el.appendChild(root);
  el.appendChild(live);

  let sel = new Set(model.get("selected"));
  let focusIndex = 0;
  let override = null;       // the move chosen with Up / Down, until the selection or the table changes
  let shownKey = null;       // the view whose moves are shown where they happened
  let shownAt = 0;
  const timers = [];

  const word = (key) => (model.get("words") || {})[key] || "";
  const faces = (size, code) => ((model.get("faces") || {})[size] || {})[code] || code;
  const frames = () => model.get("frames") || [];
  const inReplay = () => frames().length > 0;
  const current = () => {
    const f = frames();
    return f.length ? f[Math.max(0, Math.min(model.get("frame"), f.length - 1))] : model.get("view") || {};
  };
  const moves = () => (inReplay() ? [] : model.get("moves") || []);

  function say(text) {
    live.textContent = "";
    timers.push(setTimeout(() => { live.textContent = text; }, 60));
  }

  function defaultKind() {
    const kinds = moves().map((m) => m.kind);
    if (override && kinds.includes(override)) return override;
    const d = model.get("defaults") || [];
    const k = d.length ? d[Math.min(sel.size, d.length - 1)] : "";
    return kinds.includes(k) ? k : kinds[0] || "";
  }

  function press(kind) {
    if (!kind || !moves().some((m) => m.kind === kind)) return;
    model.send({ event: "press", kind, selected: [...sel].sort((a, b) => a - b), target: model.get("target") });
  }

  function saveSelection() {
    model.set("selected", [...sel].sort((a, b) => a - b));
    model.save_changes();
  }

  // --- pieces of the table ---------------------------------------------------------------------------------------
  function backs(n, big) {
    const shown = Math.min(n, big ? 1 : 5);
    const out = h("span", { class: "ctt-backs", "aria-hidden": "true" });
    for (let i = 0; i < shown; i++) out.appendChild(h("span", { class: big ? "ctt-back ctt-back-big" : "ctt-back" }));
    return out;
  }

  function seatEl(seat, view) {
    return h("div", { class: `ctt-seat ctt-${seat.place}${seat.to_move ? " ctt-to-move" : ""}`,
                      "data-place": seat.place, "data-player": seat.player },
      h("div", { class: "ctt-name" }, seat.name, seat.to_move && view.phase !== "hand-over"
        ? h("span", { class: "ctt-turnmark" }, word("to_play")) : null),
      backs(seat.cards, false),
      h("div", { class: "ctt-count" }, seat.cards_text || ""),
      h("div", { class: "ctt-bubble", hidden: true }));
  }

  function meldEl(m) {
    const cls = `ctt-meld${m.closed ? ` ctt-closed ctt-${m.canasta}` : ""}`;
    let cards;
    if (m.closed) {
      cards = h("span", { class: "ctt-stack", "aria-hidden": "true", html: faces("small", m.top) });
    } else {
      cards = h("span", { class: "ctt-fan", "aria-hidden": "true", html: m.cards.map((c) => faces("small", c)).join("") });
    }
    return h("li", { class: cls, "data-cards": m.cards.join(" ") },
      h("span", { class: "ctt-sr" }, m.text), cards,
      m.closed ? h("span", { class: "ctt-badge", "aria-hidden": "true" }, m.badge || "") : null);
  }

  function sideEl(side) {
    const melds = side.melds.length
      ? h("ul", { class: "ctt-melds", "aria-label": side.melds_label || "" }, side.melds.map(meldEl))
      : h("div", { class: "ctt-none" }, word("no_melds"));
    const canastas = side.canastas_text || "";
    const reds = side.red_threes.length
      ? h("div", { class: "ctt-reds" }, h("span", { class: "ctt-reds-label" }, word("red_threes")),
          h("span", { class: "ctt-sr" }, `: ${side.red_threes.length}. `),
          h("span", { "aria-hidden": "true", html: side.red_threes.map((c) => faces("small", c)).join("") }))
      : null;
    return h("div", { class: `ctt-side ${side.mine ? "ctt-ours" : "ctt-theirs"}`, "data-side": side.index },
      h("div", { class: "ctt-h" }, side.heading || "", canastas),
      h("div", { class: "ctt-side-row" }, melds, reds));
  }

  function middleEl(view) {
    const pile = view.pile || {};
    const frozenText = pile.sideways ? word("frozen") : pile.frozen ? word("frozen_for_you") : "";
    const pileCards = h("span", { class: "ctt-pile-cards", "aria-hidden": "true" },
      pile.sideways && pile.sideways !== pile.top && pile.size > 1
        ? h("span", { class: "ctt-sideways", html: faces("small", pile.sideways) }) : null,
      pile.top ? h("span", { class: "ctt-top", html: faces("normal", pile.top) })
        : h("span", { class: "ctt-empty" }));
    const sr = pile.text || "";
    return h("div", { class: "ctt-middle" },
      h("div", { class: "ctt-stock" }, backs(view.stock, true),
        h("div", { class: "ctt-count" }, word("stock"), h("br"), view.stock_text || "")),
      h("div", { class: `ctt-pile${pile.sideways ? " ctt-frozen" : ""}`, title: (pile.why || []).join(" ") },
        pileCards,
        h("div", { class: "ctt-count" }, word("pile"), h("br"), pile.size_text || "",
          frozenText ? h("div", { class: "ctt-frozen-mark" }, frozenText) : null),
        h("span", { class: "ctt-sr" }, sr)));
  }

  function handEl(view) {
    const hand = view.hand || [];
    const names = view.names || {};
    const head = h("div", { class: "ctt-handhead", id: `${id}-head` },
      h("b", {}, word("your_hand")), ` · ${view.hand_text || ""} · `,
      h("span", { class: "ct-selected" }, selectedText(view)));
    if (!hand.length) return [head];
    const interactive = !inReplay();
    focusIndex = Math.max(0, Math.min(focusIndex, hand.length - 1));
    const option = (code, i) => h("div", {
      class: `ctt-card ct-hand-card${sel.has(i) ? " ctt-selected" : ""}`, role: "option", "data-index": i,
      "data-code": code, "aria-selected": sel.has(i) ? "true" : "false",
      tabindex: interactive && i === focusIndex ? "0" : "-1",
      onclick: interactive ? () => { toggle(i); } : null },
      h("span", { class: "ctt-sr" }, names[code] || code),
      h("span", { "aria-hidden": "true", html: faces("normal", code) }));
    const groups = [];
    const wf = view.wild_from ?? hand.length;
    if (wf > 0) {
      groups.push(h("div", { class: "ctt-group", role: "group", "aria-label": word("natural_cards") },
        hand.slice(0, wf).map((c, i) => option(c, i))));
    }
    if (wf < hand.length) {
      groups.push(h("div", { class: "ctt-group ctt-wildgroup", role: "group", "aria-label": word("wild_cards") },
        hand.slice(wf).map((c, i) => option(c, i + wf))));
    }
    const list = h("div", { class: "ctt-hand", role: "listbox", "aria-multiselectable": "true",
                            "aria-orientation": "horizontal", "aria-labelledby": `${id}-head`,
                            "aria-describedby": `${id}-keys`, onkeydown: interactive ? onKey : null }, groups);
    return [head, list];
  }

  function selectedText(view) {
    const hand = view.hand || [];
    const chosen = [...sel].filter((i) => i < hand.length).sort((a, b) => a - b).map((i) => cardText(hand[i]));
    return chosen.length ? fill(word("selected"), { cards: chosen.join(" ") }) : (inReplay() ? "" : word("tap_to_select"));
  }

  function cardText(code) {
    if (code === "JK") return word("joker");
    const suit = { S: "♠", H: "♥", D: "♦", C: "♣" }[code.slice(-1)];
    return code.slice(0, -1) + suit;
  }

  function movesEl() {
    const list = moves();
    const def = defaultKind();
    const keys = h("div", { class: "ctt-keys", id: `${id}-keys` },
      word("keys"),
      h("b", { class: "ctt-default-name" }, (list.find((m) => m.kind === def) || {}).label || "—"));
    const buttons = list.map((m) => h("button", {
      type: "button", class: `ctt-move ct-action-${m.kind}${m.kind === def ? " ctt-default" : ""}`,
      "data-kind": m.kind, onclick: () => press(m.kind) },
      m.kind === def ? h("span", { class: "ctt-enter", "aria-hidden": "true" }, "⏎ ") : null, m.label));
    const targets = model.get("targets") || [];
    const wantsTarget = list.some((m) => m.kind === "lay_off" || m.kind === "swap");
    let picker = null;
    if (wantsTarget && targets.length) {
      const select = h("select", { class: "ctt-target-select", id: `${id}-target`,
        onchange: (e) => { model.set("target", Number(e.target.value)); model.save_changes(); } },
        targets.map((t) => h("option", { value: t.index, selected: t.index === model.get("target") }, t.label)));
      picker = h("span", { class: "ctt-target" }, h("label", { for: `${id}-target` }, word("onto")), select);
    }
    if (!list.length) return [];
    return [h("div", { class: "ctt-moves", role: "group", "aria-label": word("moves") }, buttons, picker),
            keys];
  }

  function replayEl() {
    const f = frames();
    const i = Math.max(0, Math.min(model.get("frame"), f.length - 1));
    const go = (j) => { model.set("frame", j); model.save_changes(); };
    const step = { step: i + 1, steps: f.length, caption: f[i].caption || "" };
    return h("div", { class: "ctt-replay", role: "group", "aria-label": word("replay") },
      h("button", { type: "button", class: "ctt-move ctt-prev", disabled: i === 0, onclick: () => go(i - 1) }, word("previous")),
      h("span", { class: "ctt-step" }, fill(word(f[i].caption ? "step_caption" : "step"), step)),
      h("button", { type: "button", class: "ctt-move ctt-next", disabled: i === f.length - 1, onclick: () => go(i + 1) },
        word("next")));
  }

  function logEl() {
    const items = (model.get("log") || []).map((e) => h("li", { class: `ct-event ct-event-${e.kind}` }, e.text,
      e.why ? [" ", h("button", { type: "button", class: "ctt-why", "data-index": e.why.index,
                                  "aria-label": e.why.label, title: e.why.label,
                                  onclick: () => model.send({ event: "why", index: e.why.index }) },
                      e.why.text)] : null));
    const box = h("div", { class: "ctt-log ct-log", role: "log", "aria-live": "off", tabindex: "0",
                           "aria-label": word("what_happened") },
      h("div", { class: "ctt-h" }, word("what_happened")), h("ol", {}, items));
    return box;
  }

  // --- the moves shown where they happened -----------------------------------------------------------------------
  function showRecent(view, table, fresh) {
    const recent = view.recent || [];
    if (!recent.length) return;
    const latest = {};
    for (const m of recent) latest[m.place] = m;
    for (const [place, m] of Object.entries(latest)) {
      const seat = table.querySelector(`.ctt-seat[data-place="${place}"] .ctt-bubble`)
        || (place === "south" ? table.querySelector(".ctt-south-bubble") : null);
      if (!seat) continue;
      const name = (view.seats || []).find((s) => s.place === place)?.name || "";
      // at another seat the seat's name is there already ("discards 9♦"); the learner's own reads "You discard 9♦."
      seat.textContent = place !== "south" && m.text.startsWith(name + " ") ? m.text.slice(name.length + 1) : m.text;
      seat.hidden = false;
    }
    const last = recent[recent.length - 1];
    const flash = [];
    if (last.kind === "discard" || last.kind === "end") flash.push(table.querySelector(".ctt-pile"));
    else if (last.kind === "take_pile") flash.push(table.querySelector(".ctt-pile"));
    else if (last.kind === "draw") flash.push(table.querySelector(".ctt-stock"));
    if (["meld", "lay_off", "swap", "go_out", "take_pile"].includes(last.kind)) {
      const side = (view.sides || []).find((s) => s.players.includes(last.player));
      if (side) {
        for (const li of table.querySelectorAll(`.ctt-side[data-side="${side.index}"] .ctt-meld`)) {
          const cards = li.dataset.cards.split(" ");
          if (last.cards.some((c) => cards.includes(c))) flash.push(li);
        }
      }
    }
    flash.push(table.querySelector(`.ctt-seat[data-place="${last.place}"]`));
    for (const f of flash) if (f) f.classList.add(fresh ? "ctt-flash" : "ctt-marked");
    const left = Math.max(0, BUBBLE_MS - (Date.now() - shownAt));
    timers.push(setTimeout(() => {
      for (const b of table.querySelectorAll(".ctt-bubble, .ctt-south-bubble")) b.hidden = true;
      for (const f of table.querySelectorAll(".ctt-flash, .ctt-marked")) f.classList.remove("ctt-flash", "ctt-marked");
    }, fresh ? BUBBLE_MS : left));
    if (fresh) timers.push(setTimeout(() => {
      for (const f of table.querySelectorAll(".ctt-flash")) { f.classList.remove("ctt-flash"); f.classList.add("ctt-marked"); }
    }, FLASH_MS));
  }

  // --- drawing it all --------------------------------------------------------------------------------------------
  function focusState() {
    const a = document.activeElement;
    if (!a || !root.contains(a)) return null;
    if (a.dataset.index !== undefined) return { card: true };
    if (a.dataset.kind) return { kind: a.dataset.kind };
    if (a.classList.contains("ctt-prev")) return { replay: "prev" };
    if (a.classList.contains("ctt-next")) return { replay: "next" };
    if (a.classList.contains("ctt-target-select")) return { target: true };
    if (a.classList.contains("ctt-log")) return { log: true };
    return { other: true };
  }

  function restoreFocus(state) {
    if (!state) return;
    let target = null;
    if (state.kind) target = root.querySelector(`.ctt-move[data-kind="${state.kind}"]`);
    else if (state.replay) target = root.querySelector(state.replay === "prev" ? ".ctt-prev" : ".ctt-next");
    else if (state.target) target = root.querySelector(".ctt-target-select");
    else if (state.log) target = root.querySelector(".ctt-log");
    if (target && target.disabled) target = root.querySelector(".ctt-next:not([disabled]), .ctt-prev:not([disabled])");
    if (!target) target = root.querySelector('.ctt-card[tabindex="0"]') || root.querySelector(".ctt-move");
    if (target) target.focus({ preventScroll: true });
  }

  function draw() {
    const view = current();
    const focus = focusState();
    const logScroll = root.querySelector(".ctt-log");
    const wasAtEnd = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 4;
    const key = `${inReplay() ? "r" + model.get("frame") : "v"}:${view.moves}:${(view.recent || []).length}`;
    const fresh = key !== shownKey;
    if (fresh) { shownKey = key; shownAt = Date.now(); override = null; }
    const seats = view.seats || [];
    const table = h("div", { class: `ctt-table ctt-players-${seats.length}` },
      seats.filter((s) => s.place !== "south").map((s) => seatEl(s, view)),
      (view.sides || []).filter((s) => !s.mine).map(sideEl),
      middleEl(view),
      (view.sides || []).filter((s) => s.mine).map(sideEl),
      h("div", { class: "ctt-south" }, h("div", { class: "ctt-south-bubble ctt-bubble", hidden: true }),
        handEl(view), movesEl()));
    const status = h("div", { class: "ctt-status ct-turn", "data-moves": view.moves ?? "" }, view.status || "");
    const main = h("div", { class: "ctt-main" }, table, inReplay() ? null : logEl());
    root.replaceChildren(...[status, inReplay() ? replayEl() : null, main].filter(Boolean));
    root.classList.toggle("ctt-replaying", inReplay());
    const log = root.querySelector(".ctt-log");
    if (log && wasAtEnd) log.scrollTop = log.scrollHeight;
    showRecent(view, table, fresh);
    restoreFocus(focus);
  }

  // --- selection and keys ----------------------------------------------------------------------------------------
  function refreshSelection() {
    const view = current();
    for (const card of root.querySelectorAll(".ctt-card")) {
      const on = sel.has(Number(card.dataset.index));
      card.classList.toggle("ctt-selected", on);
      card.setAttribute("aria-selected", on ? "true" : "false");
    }
    const label = root.querySelector(".ct-selected");
    if (label) label.textContent = selectedText(view);
    const def = defaultKind();
    for (const b of root.querySelectorAll(".ctt-moves .ctt-move")) {
      const on = b.dataset.kind === def;
      b.classList.toggle("ctt-default", on);
      const mark = b.querySelector(".ctt-enter");
      if (on && !mark) b.prepend(h("span", { class: "ctt-enter", "aria-hidden": "true" }, "⏎ "));
      if (!on && mark) mark.remove();
    }
    const name = root.querySelector(".ctt-default-name");
    if (name) name.textContent = (moves().find((m) => m.kind === def) || {}).label || "—";
  }

  function toggle(i) {
    if (sel.has(i)) sel.delete(i); else sel.add(i);
    focusIndex = i;
    override = null;
    for (const c of root.querySelectorAll(".ctt-card")) c.tabIndex = Number(c.dataset.index) === i ? 0 : -1;
    refreshSelection();
    saveSelection();
  }

  function moveFocus(i) {
    const cards = [...root.querySelectorAll(".ctt-card")];
    if (!cards.length) return;
    focusIndex = Math.max(0, Math.min(i, cards.length - 1));
    for (const c of cards) c.tabIndex = Number(c.dataset.index) === focusIndex ? 0 : -1;
    cards[focusIndex].focus();
  }

  function onKey(e) {
    const kinds = moves().map((m) => m.kind);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      moveFocus(focusIndex + (e.key === "ArrowRight" ? 1 : -1));
    } else if (e.key === "Home" || e.key === "End") {
      moveFocus(e.key === "Home" ? 0 : 1e9);
    } else if (e.key === " " || e.key === "Spacebar") {
      toggle(focusIndex);
      const card = root.querySelector(`.ctt-card[data-index="${focusIndex}"]`);
      if (card) card.focus();
    } else if (e.key === "Enter") {
      press(defaultKind());
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && kinds.length) {
      const at = kinds.indexOf(defaultKind());
      override = kinds[(at + (e.key === "ArrowDown" ? 1 : kinds.length - 1)) % kinds.length];
      refreshSelection();
      say(fill(word("enter_plays"), { move: (moves().find((m) => m.kind === override) || {}).label || "" }));
    } else if (e.key === "Escape" && sel.size) {
      sel.clear();
      refreshSelection();
      saveSelection();
    } else {
      return;
    }
    e.preventDefault();
  }

  // --- what the model says ---------------------------------------------------------------------------------------
  const onView = () => { sel = new Set(model.get("selected")); draw(); };
  const onSelected = () => { sel = new Set(model.get("selected")); refreshSelection(); };
  const onAnnounce = () => { const a = model.get("announcement") || {}; if (a.text) say(a.text); };
  const onFrame = () => draw();
  model.on("change:view", onView);
  model.on("change:words", onFrame);
  model.on("change:frames", onFrame);
  model.on("change:frame", onFrame);
  model.on("change:log", onFrame);
  model.on("change:moves", onFrame);
  model.on("change:selected", onSelected);
  model.on("change:announcement", onAnnounce);
  draw();
  return () => {
    for (const t of timers) clearTimeout(t);
    model.off("change:view", onView);
    model.off("change:words", onFrame);
    model.off("change:frames", onFrame);
    model.off("change:frame", onFrame);
    model.off("change:log", onFrame);
    model.off("change:moves", onFrame);
    model.off("change:selected", onSelected);
    model.off("change:announcement", onAnnounce);
  };
}

export default { render };
