/* Confirmation before the actions that cannot be taken back (issue 15): certify, revoke, complete, terminate, void.
   A form, or the button that submits it, carries data-confirm="the question"; Cancel submits nothing. Without
   JavaScript the form submits as before (the services still apply every rule). */
document.addEventListener("submit", function (event) {
  var button = event.submitter;
  var message = (button && button.getAttribute("data-confirm")) || event.target.getAttribute("data-confirm");
  if (message && !window.confirm(message)) {
    event.preventDefault();
  }
});
