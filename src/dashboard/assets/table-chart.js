// The dashboard's charts: each `.chart[data-table]` is drawn, with uPlot (served by this app), from the numbers of the
// table it names on the same page (first column a day, then one column a series), so a chart and its table can never
// disagree and the table remains for people who would rather read (and for screen readers). Without scripts the table
// is the whole story.
/* global document, window, setTimeout, clearTimeout, uPlot */
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  if (typeof uPlot !== 'function') return;
  for (const holder of document.querySelectorAll('.chart[data-table]')) {
    const table = document.getElementById(holder.dataset.table);
    if (table) draw(holder, table);
  }
});

function draw(holder, table) {
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
  const rows = [...table.querySelectorAll('tbody tr')].filter((row) => row.querySelector('th'));
  const days = rows.map((row) => Date.parse(`${row.querySelector('th').textContent.trim()}T00:00:00Z`) / 1000);
  const columns = headers
    .slice(1)
    .map((_, i) => rows.map((row) => Number(row.querySelectorAll('td')[i].textContent.replace(/,/g, '')) || 0));
  const colours = ['#1a56c4', '#b3261e', '#2e7d32', '#8e24aa', '#ef6c00', '#546e7a', '#1d2330'];
  const series = [{}].concat(
    headers.slice(1).map((label, i) => ({
      label,
      stroke: colours[i % colours.length],
      width: label === 'Total' ? 2.5 : 1.5,
      dash: label === 'Total' ? [6, 4] : undefined,
      points: { show: rows.length <= 31 },
    })),
  );
  const size = () => ({ width: Math.max(240, holder.clientWidth), height: 260 });
  const chart = new uPlot(
    {
      ...size(),
      series,
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max * 1.1))] } },
      axes: [{}, { label: holder.dataset.unit || '' }],
    },
    [days, ...columns],
    holder,
  );
  holder.dataset.drawn = 'true';
  let pending = null;
  window.addEventListener('resize', () => {
    clearTimeout(pending);
    pending = setTimeout(() => chart.setSize(size()), 150);
  });
}
