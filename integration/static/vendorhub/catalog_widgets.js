/* vendorhub: the tag picker's search box and click-to-toggle, and the refund editor's row buttons.
   Every handler listens on the document, so fields in inline rows that the admin adds later work too;
   without this script both widgets still show their values and post plain form fields. */
"use strict";
{
    // Controls that only work with this script are hidden by CSS until this class is set.
    document.documentElement.classList.add("vh-js");

    const pickerOf = (element) => element.closest(".vh-tag-picker");

    function filterOptions(picker, text) {
        const words = text.toLowerCase().split(/\s+/).filter(Boolean);
        const select = picker.querySelector("select");
        for (const option of select.options) {
            const haystack = `${option.textContent} ${option.value}`.toLowerCase();
            option.hidden = !words.every((word) => haystack.includes(word));
        }
        for (const group of select.querySelectorAll("optgroup")) {
            group.hidden = !group.querySelector("option:not([hidden])");
        }
    }

    function showChosen(picker) {
        const list = picker.querySelector(".vh-tags-chosen ul");
        const items = Array.from(picker.querySelector("select").selectedOptions, (option) => {
            const item = document.createElement("li");
            item.textContent = option.textContent;
            if (option.classList.contains("vh-tag-unknown")) {
                item.className = "vh-tag-unknown";
                item.title = option.parentElement.label;
            }
            return item;
        });
        if (!items.length) {
            const none = document.createElement("li");
            none.className = "vh-tag-none";
            none.textContent = list.dataset.empty;
            items.push(none);
        }
        list.replaceChildren(...items);
    }

    document.addEventListener("input", (event) => {
        if (event.target.matches(".vh-tag-search")) {
            filterOptions(pickerOf(event.target), event.target.value);
        }
    });

    document.addEventListener("keydown", (event) => {
        // Enter in the search box would submit the whole admin form.
        if (event.key === "Enter" && event.target.matches(".vh-tag-search")) {
            event.preventDefault();
        }
    });

    document.addEventListener("change", (event) => {
        if (event.target.matches(".vh-tag-picker select")) {
            showChosen(pickerOf(event.target));
        }
    });

    // A plain click on an option toggles it instead of replacing the whole selection.
    document.addEventListener("mousedown", (event) => {
        const option = event.target.closest && event.target.closest(".vh-tag-picker option");
        if (!option || event.button !== 0 || event.shiftKey || event.ctrlKey || event.metaKey) {
            return;
        }
        const select = option.closest("select");
        if (select.disabled) {
            return;
        }
        event.preventDefault();
        const scrollTop = select.scrollTop;
        option.selected = !option.selected;
        select.focus({preventScroll: true});
        select.scrollTop = scrollTop;
        select.dispatchEvent(new Event("change", {bubbles: true}));
    });

    function renumber(editor) {
        editor.querySelectorAll(".vh-refund-rows .vh-refund-number").forEach((cell, index) => {
            cell.textContent = index + 1;
        });
    }

    document.addEventListener("click", (event) => {
        const add = event.target.closest(".vh-refund-add");
        if (add) {
            const editor = add.closest(".vh-refund-editor");
            const row = editor.querySelector(".vh-refund-prototype tr").cloneNode(true);
            row.querySelectorAll("input").forEach((input) => {
                input.disabled = false;
                input.value = "";
            });
            editor.querySelector(".vh-refund-rows").append(row);
            renumber(editor);
            row.querySelector("input").focus();
            return;
        }
        const remove = event.target.closest(".vh-refund-remove");
        if (remove) {
            const editor = remove.closest(".vh-refund-editor");
            remove.closest("tr").remove();
            renumber(editor);
        }
    });
}
