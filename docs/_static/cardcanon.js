// On a phone, the rows of a "stacked" table become cards: each cell is labelled with its column.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.stacked").forEach((table) => {
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    table.querySelectorAll("tbody tr").forEach((tr) => {
      [...tr.children].forEach((td, i) => { td.dataset.label = heads[i] || ""; });
    });
  });
  markScrolling();
});
window.addEventListener("load", markScrolling);
window.addEventListener("resize", markScrolling);

// A table or picture wider than its box scrolls sideways in it: mark the box and put a hint above.
function markScrolling() {
  document.querySelectorAll("article div.table-wrapper, article div.wide-figure").forEach((box) => {
    const wide = box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("scrolls", wide);
    let hint = box.previousElementSibling;
    if (!(hint && hint.classList.contains("scroll-hint"))) {
      if (!wide) return;
      hint = document.createElement("p");
      hint.className = "scroll-hint";
      hint.textContent = box.querySelector("table") ? "Wider than the screen: the table scrolls sideways \u2192"
                                                    : "Wider than the screen: the picture scrolls sideways \u2192";
      box.before(hint);
    }
    hint.hidden = !wide;
  });
}
