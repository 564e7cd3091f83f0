// On a phone, the rows of a "stacked" table become cards: each cell is labelled with its column.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.stacked").forEach((table) => {
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    table.querySelectorAll("tbody tr").forEach((tr) => {
      [...tr.children].forEach((td, i) => { td.dataset.label = heads[i] || ""; });
    });
  });
});
