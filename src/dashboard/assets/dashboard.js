// Progressive enhancement for the dashboard: every page works without this script. It adds a Copy
// button to a newly shown API key. Loaded from this origin only (the pages' CSP allows no inline script).
/* global document, navigator */
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const target = document.getElementById(button.getAttribute('data-copy'));
    if (!target || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(target.textContent.trim());
        button.textContent = 'Copied';
      } catch {
        button.textContent = 'Select the key and copy it';
      }
    });
  }
});
