"""Small fixes to django-allauth's forms as we render them."""

from django import template

register = template.Library()


@register.filter
def clear_labels(form):
    """allauth labels its login box "Login"; say what to type there ("Username or email", its placeholder)."""
    field = form.fields.get("login")
    if field is not None and str(field.label) == "Login":
        field.label = field.widget.attrs.get("placeholder") or "Username or email"
        form["login"].label = field.label  # a bound form has already copied the label into its BoundField
    return form
