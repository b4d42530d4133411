// The booking page's print button: the browser's print, which booking.css lays out for paper.
document.addEventListener("click", (event) => {
  if (event.target.closest(".booking-print")) {
    event.preventDefault();
    window.print();
  }
});
