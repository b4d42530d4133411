// The report's chart (Chart.js, from our own static files) from the numbers the page carries as JSON: bars
// on the left axis, a line (ADR, the books) on the right one when the report has it.
(function () {
  "use strict";
  var source = document.getElementById("report-chart-data");
  var canvas = document.getElementById("report-chart");
  if (!source || !canvas || !window.Chart) {
    return;
  }
  var data = JSON.parse(source.textContent);
  var colors = ["#417690", "#e3a21a", "#79aec8", "#ba2121"];
  function axis(id, position) {
    var percent = data.datasets.some(function (set) { return set.yAxisID === id && set.percent; });
    return {
      display: data.datasets.some(function (set) { return set.yAxisID === id; }),
      position: position,
      beginAtZero: true,
      grid: { drawOnChartArea: position === "left" },
      ticks: { precision: 0, callback: function (value) { return percent ? value + "%" : value.toLocaleString(); } },
    };
  }
  new window.Chart(canvas, {
    data: {
      labels: data.labels,
      datasets: data.datasets.map(function (set, index) {
        return {
          type: set.type,
          label: set.label,
          data: set.data,
          yAxisID: set.yAxisID,
          backgroundColor: colors[index % colors.length],
          borderColor: colors[index % colors.length],
          order: set.type === "line" ? 0 : 1,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: "index", intersect: false },
      scales: { y: axis("y", "left"), y1: axis("y1", "right") },
    },
  });
})();
