/* vendorhub: the rates and availability grid's cell editor (on a click, or on a number typed on a cell),
   the selection of a block of cells for the bulk edit (dragged over, or Shift with a click or the arrows),
   its window and channel pickers, and the bulk edit's helpers (add a date range, choose rows and weekdays at
   once). Without this script the grid is read
   only, and the bulk edit and CSV pages still work as plain forms. */
"use strict";
{
    document.documentElement.classList.add("vh-js");

    // --- Window and channel pickers: choosing one shows it. ---
    document.addEventListener("change", (event) => {
        if (event.target.matches("select.vh-autosubmit")) {
            event.target.form.submit();
        }
    });

    // --- A window with today in it opens scrolled to today, the days before it being read only. ---
    document.addEventListener("DOMContentLoaded", () => {
        const today = document.querySelector(".vh-ari-grid thead th.vh-today");
        if (today) {
            const scroller = today.closest(".vh-ari-scroll");
            const corner = scroller.querySelector(".vh-ari-corner");
            scroller.scrollLeft = Math.max(0, today.offsetLeft - corner.offsetWidth - today.offsetWidth);
        }
    });

    // --- The cell editor ---
    let current = null; // the cell being edited

    const editor = () => document.getElementById("vh-ari-editor");

    function closeEditor() {
        const form = editor();
        if (form) {
            form.hidden = true;
        }
        if (current) {
            current.classList.remove("vh-editing");
            current.focus({preventScroll: true});
        }
        current = null;
    }

    function describe(cell) {
        const table = cell.closest("table");
        const row = cell.closest("tr");
        const block = cell.closest("tbody").querySelector(".vh-ari-rt-head a");
        const column = table.tHead.rows[0].cells[cell.cellIndex];
        // The row's name without its standing with the hub.
        const header = row.querySelector("th").cloneNode(true);
        header.querySelectorAll(".vh-hub").forEach((box) => box.remove());
        const label = header.textContent.trim().replace(/\s+/g, " ");
        return `${block ? block.textContent.trim() : ""} · ${label} · ${column.title}`;
    }

    function showError(form, message) {
        const error = form.querySelector(".vh-editor-error");
        error.textContent = message;
        error.hidden = !message;
    }

    // Rooms to sell far above the room type's rooms: the server asks, a checkbox confirms.
    function showConfirm(form, shown) {
        const confirm = form.querySelector(".vh-editor-confirm");
        if (confirm) {
            confirm.hidden = !shown;
            form.elements.confirm.checked = false;
        }
    }

    // The cell's history (who changed it, when, from what to what, through which screen), on demand.
    function showHistory(form, html) {
        const box = form.querySelector(".vh-editor-history-list");
        if (box) {
            box.innerHTML = html || "";
            box.hidden = html === null;
        }
    }

    // The editor (and its history) stays inside the window: below the cell, or above it when there is no
    // room below, and moved left so that its right edge shows.
    function place(form) {
        if (!current) {
            return;
        }
        const box = current.getBoundingClientRect();
        const view = document.documentElement;
        const width = form.offsetWidth;
        const height = form.offsetHeight;
        const left = Math.min(box.left, view.clientWidth - width - 8);
        let top = box.bottom + 4;
        if (top + height > view.clientHeight - 8 && box.top - height - 4 >= 8) {
            top = box.top - height - 4;
        }
        form.style.left = `${Math.max(8, left) + window.scrollX}px`;
        form.style.top = `${Math.max(8, top) + window.scrollY}px`;
    }

    async function loadHistory(form) {
        const query = new URLSearchParams({
            kind: form.elements.kind.value,
            target: form.elements.target.value,
            date: form.elements.date.value,
            channel: form.elements.channel.value,
        });
        let html;
        try {
            const response = await fetch(`${form.dataset.historyUrl}?${query}`, {credentials: "same-origin"});
            html = await response.text();
        } catch (error) {
            html = "";
            showError(form, form.dataset.errorNetwork);
        }
        showHistory(form, html);
        place(form);
    }

    function openEditor(cell) {
        const form = editor();
        if (!form) {
            return;
        }
        if (current) {
            current.classList.remove("vh-editing");
        }
        current = cell;
        cell.classList.add("vh-editing");
        // The id names the row and the date: c-<rp|al|cap>-<target id>-<YYYY-MM-DD>.
        const [, row, target, date] = cell.id.match(/^c-(rp|al|cap)-(\d+)-(\d{4}-\d{2}-\d{2})$/);
        const kind = row === "rp" ? "rate" : "availability";
        form.elements.kind.value = kind;
        form.elements.target.value = target;
        form.elements.date.value = date;
        form.elements.value.value = cell.dataset.value ? Number(cell.dataset.value).toLocaleString("en-US") : "";
        form.querySelector(".vh-editor-title").textContent = describe(cell);
        const label = form.querySelector(".vh-editor-label");
        label.textContent = label.dataset[kind];
        const hint = form.querySelector(".vh-editor-hint");
        const channel = form.elements.channel.value;
        let hintText = "";
        if (channel) {
            hintText = hint.dataset.channel;
        } else if ("base" in cell.dataset) {
            hintText = cell.dataset.base
                ? `${hint.dataset.package} ${Number(cell.dataset.base).toLocaleString("en-US")}`
                : hint.dataset.nobase;
        }
        hint.textContent = hintText;
        hint.hidden = !hintText;
        const open = form.querySelector(".vh-editor-open");
        if (open) {
            const isRate = kind === "rate";
            open.hidden = !isRate;
            form.elements.open_for_sale.checked = cell.dataset.open !== "0";
        }
        showError(form, "");
        showConfirm(form, false);
        showHistory(form, null);
        form.hidden = false;
        place(form);
        form.elements.value.focus();
        form.elements.value.select();
    }

    async function save(form) {
        const cell = current;
        if (form.elements.business_day) {
            form.elements.business_day.value =
                form.elements.kind.value === "rate" ? (form.elements.open_for_sale.checked ? "1" : "0") : "";
        }
        const body = new FormData(form);
        body.delete("open_for_sale");
        // What the cell showed: the server refuses to save over a change made since.
        body.set("seen_value", cell ? cell.dataset.value || "" : "");
        body.set("seen_open", cell && "open" in cell.dataset ? cell.dataset.open : "");
        let answer;
        try {
            const response = await fetch(form.action, {
                method: "POST",
                body,
                headers: {"X-Requested-With": "XMLHttpRequest", Accept: "application/json"},
                credentials: "same-origin",
            });
            answer = await response.json();
        } catch (error) {
            answer = {ok: false, error: form.dataset.errorNetwork};
        }
        const id = cell ? cell.id : null;
        if (answer.cells) {
            for (const [cellId, html] of Object.entries(answer.cells)) {
                const old = document.getElementById(cellId);
                if (old) {
                    old.outerHTML = html;
                }
            }
            current = id ? document.getElementById(id) : null;
        }
        if (!answer.ok) {
            // Stale: the cell now shows what someone else saved; the editor stays open with the value typed.
            showError(form, answer.error);
            showConfirm(form, Boolean(answer.confirm));
            if (current) {
                current.classList.add("vh-editing", answer.stale ? "vh-cell-stale" : "vh-cell-error");
                current.dataset.error = answer.error;
            }
            return;
        }
        if (current) {
            current.classList.add("vh-cell-saved");
        }
        closeEditor();
        refreshHub();
    }

    // --- Where each row stands with the hub: refreshed every few seconds while a row is on its way. ---
    const HUB_REFRESH_MS = 5000;
    let hubTimer = null;

    function hubWaiting(grid) {
        return grid.querySelector(".vh-hub[data-hub-status=pending], .vh-hub[data-hub-status=retrying]") !== null;
    }

    async function refreshHub() {
        const grid = document.getElementById("vh-ari-grid");
        if (!grid || !grid.dataset.hubUrl) {
            return;
        }
        clearTimeout(hubTimer);
        let answer = null;
        try {
            const response = await fetch(grid.dataset.hubUrl, {
                headers: {Accept: "application/json"},
                credentials: "same-origin",
            });
            answer = response.ok ? await response.json() : null;
        } catch (error) {
            answer = null; // offline for a moment: the next round tries again
        }
        if (answer) {
            for (const [id, row] of Object.entries(answer.rows)) {
                const box = document.getElementById(id);
                if (box) {
                    box.dataset.hubStatus = row.status;
                    box.innerHTML = row.html;
                }
            }
            const unsent = new Set(answer.unsent);
            grid.querySelectorAll(".vh-cell.vh-unsent").forEach((cell) => {
                if (!unsent.has(cell.id)) {
                    cell.classList.remove("vh-unsent");
                }
            });
            unsent.forEach((id) => {
                const cell = document.getElementById(id);
                if (cell) {
                    cell.classList.add("vh-unsent");
                }
            });
        }
        if (answer ? answer.waiting : hubWaiting(grid)) {
            hubTimer = setTimeout(refreshHub, HUB_REFRESH_MS);
        }
    }

    document.addEventListener("DOMContentLoaded", () => {
        const grid = document.getElementById("vh-ari-grid");
        if (grid && hubWaiting(grid)) {
            hubTimer = setTimeout(refreshHub, HUB_REFRESH_MS);
        }
    });

    document.addEventListener("click", (event) => {
        const cell = event.target.closest(".vh-ari-grid .vh-cell.vh-editable");
        if (cell && (dragged || event.shiftKey)) {
            // The end of a drag or a Shift+click selects cells (see below); it opens no editor.
            dragged = false;
            return;
        }
        if (cell) {
            clearSelection();
            openEditor(cell);
            return;
        }
        if (event.target.closest(".vh-editor-cancel")) {
            closeEditor();
            return;
        }
        if (event.target.closest(".vh-editor-history")) {
            loadHistory(editor());
            return;
        }
        const form = editor();
        if (form && !form.hidden && !event.target.closest("#vh-ari-editor")) {
            closeEditor();
        }
    });

    // --- Moving between editable cells with the keyboard: arrows, Home and End (of the row). ---
    const editableIn = (row) => Array.from(row.querySelectorAll(".vh-cell.vh-editable"));

    function neighbour(cell, key) {
        const row = cell.closest("tr");
        if (key === "Home" || key === "End") {
            const cells = editableIn(row);
            return key === "Home" ? cells[0] : cells[cells.length - 1];
        }
        if (key === "ArrowLeft" || key === "ArrowRight") {
            const cells = editableIn(row);
            return cells[cells.indexOf(cell) + (key === "ArrowLeft" ? -1 : 1)];
        }
        // Up and down: the same day in the nearest row above or below that has an editable cell there.
        const rows = Array.from(cell.closest("table").querySelectorAll("tbody tr"));
        const step = key === "ArrowUp" ? -1 : 1;
        for (let index = rows.indexOf(row) + step; index >= 0 && index < rows.length; index += step) {
            const candidate = rows[index].cells[cell.cellIndex];
            if (candidate && candidate.classList.contains("vh-editable") && rows[index].cells.length === row.cells.length) {
                return candidate;
            }
        }
        return undefined;
    }

    const MOVES = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

    document.addEventListener("keydown", (event) => {
        const cell = event.target.closest && event.target.closest(".vh-ari-grid .vh-cell.vh-editable");
        const plain = !event.altKey && !event.ctrlKey && !event.metaKey;
        if (cell && (event.key === "Enter" || event.key === " ")) {
            event.preventDefault();
            clearSelection();
            openEditor(cell);
        } else if (cell && plain && /^[0-9]$/.test(event.key)) {
            // A number typed on a cell starts its editor with that digit, as in a spreadsheet.
            event.preventDefault();
            clearSelection();
            openEditor(cell);
            const input = editor().elements.value;
            input.value = event.key;
            input.setSelectionRange(1, 1);
        } else if (cell && MOVES.has(event.key) && plain) {
            const next = neighbour(cell, event.key);
            event.preventDefault();
            if (next) {
                if (event.shiftKey) {
                    anchor = anchor || cell;
                    select(anchor, next);
                } else {
                    clearSelection();
                }
                next.focus();
                next.scrollIntoView({block: "nearest", inline: "nearest"});
            }
        } else if (event.key === "Escape" && current) {
            closeEditor();
        } else if (event.key === "Escape") {
            clearSelection();
        }
    });

    document.addEventListener("submit", (event) => {
        if (event.target.id === "vh-ari-editor") {
            event.preventDefault();
            save(event.target);
        }
    });

    // --- A block of cells for the bulk edit: dragged over with the mouse, or Shift with a click or the
    // arrows. The bar under the grid opens the bulk edit with the block's days and rows chosen. ---
    let anchor = null; // where the selection started
    let dragging = false;
    let dragged = false; // the click that ends a drag opens no editor

    const selectionBar = () => document.getElementById("vh-ari-selection");

    // The bulk edit's row of a cell: rp-<id> a rate plan, al-/cap-<id> a room type's (or channel's) rooms.
    function cellTarget(cell) {
        const [, row, target, date] = cell.id.match(/^c-(rp|al|cap)-(\d+)-(\d{4}-\d{2}-\d{2})$/);
        return {target: `${row === "rp" ? "rp" : "rt"}:${target}`, date};
    }

    function clearSelection() {
        document.querySelectorAll(".vh-ari-grid .vh-selected").forEach((cell) => cell.classList.remove("vh-selected"));
        anchor = null;
        const bar = selectionBar();
        if (bar) {
            bar.hidden = true;
        }
    }

    // Every editable cell in the rectangle between two cells (rows of the grid in order, days between).
    function select(from, to) {
        const table = from.closest("table");
        const rows = Array.from(table.querySelectorAll("tbody tr")).filter((row) => row.querySelector(".vh-editable"));
        const [top, bottom] = [rows.indexOf(from.closest("tr")), rows.indexOf(to.closest("tr"))].sort((a, b) => a - b);
        const [left, right] = [from.cellIndex, to.cellIndex].sort((a, b) => a - b);
        table.querySelectorAll(".vh-selected").forEach((cell) => cell.classList.remove("vh-selected"));
        const chosen = [];
        rows.slice(top, bottom + 1).forEach((row) => {
            Array.from(row.cells).slice(left, right + 1).forEach((cell) => {
                if (cell.classList.contains("vh-editable")) {
                    cell.classList.add("vh-selected");
                    chosen.push(cell);
                }
            });
        });
        showSelection(table, chosen);
    }

    function showSelection(table, cells) {
        const bar = selectionBar();
        if (!bar || !table.dataset.bulkUrl) {
            return;
        }
        if (cells.length < 2) {
            bar.hidden = true;
            return;
        }
        const targets = new Set();
        const dates = [];
        cells.forEach((cell) => {
            const {target, date} = cellTarget(cell);
            targets.add(target);
            dates.push(date);
        });
        dates.sort();
        const query = new URLSearchParams({from: dates[0], to: dates[dates.length - 1]});
        targets.forEach((target) => query.append("targets", target));
        if (table.dataset.channel) {
            query.set("channel", table.dataset.channel);
        }
        bar.querySelector(".vh-selection-count").textContent = String(cells.length);
        bar.querySelector("#vh-ari-selection-bulk").href = `${table.dataset.bulkUrl}?${query}`;
        bar.hidden = false;
    }

    document.addEventListener("pointerdown", (event) => {
        const cell = event.target.closest(".vh-ari-grid .vh-cell.vh-editable");
        if (!cell || event.button !== 0 || event.pointerType === "touch") {
            return;
        }
        if (event.shiftKey) {
            // Shift+click: the block from where the selection started (or the focused cell) to this one.
            const from = anchor || (document.activeElement.closest && document.activeElement.closest(".vh-editable"));
            anchor = from || cell;
            select(anchor, cell);
            event.preventDefault();
            return;
        }
        clearSelection();
        anchor = cell;
        dragging = true;
        dragged = false;
    });

    document.addEventListener("pointerover", (event) => {
        if (!dragging) {
            return;
        }
        const cell = event.target.closest(".vh-ari-grid .vh-cell.vh-editable");
        if (cell && anchor && cell !== anchor && cell.closest("table") === anchor.closest("table")) {
            dragged = true;
            if (current) {
                closeEditor();
            }
            select(anchor, cell);
            window.getSelection().removeAllRanges();
        }
    });

    document.addEventListener("pointerup", () => {
        dragging = false;
    });

    document.addEventListener("click", (event) => {
        if (event.target.closest(".vh-selection-clear")) {
            clearSelection();
        }
    });

    // --- Bulk edit helpers ---
    document.addEventListener("click", (event) => {
        const add = event.target.closest(".vh-date-range-add");
        if (add) {
            const rows = add.closest(".vh-date-ranges").querySelector(".vh-date-range-rows");
            const row = rows.lastElementChild.cloneNode(true);
            row.querySelectorAll("input").forEach((input) => {
                input.value = "";
                input.removeAttribute("id");
            });
            rows.append(row);
            row.querySelector("input").focus();
            return;
        }
        const select = event.target.closest(".vh-target-tools [data-select]");
        if (select) {
            const wanted = select.dataset.select;
            select.closest(".form-row").querySelectorAll("input[type=checkbox]").forEach((box) => {
                box.checked = wanted !== "none" && box.value.startsWith(`${wanted}:`);
            });
            return;
        }
        const weekdays = event.target.closest(".vh-weekday-tools [data-weekdays]");
        if (weekdays) {
            const days = weekdays.dataset.weekdays.split(",");
            weekdays.closest(".form-row").querySelectorAll("input[type=checkbox]").forEach((box) => {
                box.checked = days.includes(box.value);
            });
        }
    });
}
