// Cellar theme: small progressive enhancements only; the pages work without JavaScript.
document.addEventListener('DOMContentLoaded', () => {
  for (const select of document.querySelectorAll('form[action="/cart/add"] select')) {
    select.addEventListener('change', () => select.form.querySelector('button').focus());
  }
});
