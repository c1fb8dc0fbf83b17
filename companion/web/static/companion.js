// Progressive help for the score forms; every page also works without it.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // Card pickers: show how many are picked, and stop at the most a hand holds.
  for (const grid of document.querySelectorAll(".cards[data-max]")) {
    const max = Number(grid.dataset.max);
    const boxes = [...grid.querySelectorAll("input")];
    const counter = grid.parentElement.querySelector(".count");
    const update = () => {
      const picked = boxes.filter((b) => b.checked).length;
      if (counter) counter.textContent = `${picked}/${max}`;
      if (boxes[0] && boxes[0].type === "checkbox") {
        for (const b of boxes) b.disabled = !b.checked && picked >= max;
      }
    };
    grid.addEventListener("change", update);
    update();
  }
  // Copy buttons (shareable setup links).
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.hidden = !navigator.clipboard;
    button.addEventListener("click", () => navigator.clipboard.writeText(button.dataset.copy));
  }
});
