"""Build an admin change form's POST data from the page, as a browser submitting it unchanged would."""


def _value(field):
    value = field.value()
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    return value


def _form_data(form):
    data = {}
    for bound in form:
        if bound.field.disabled:
            continue
        value = _value(bound)
        if value in ("", []) and getattr(bound.field.widget, "input_type", None) == "checkbox":
            continue
        data[bound.html_name] = value
    return data


def changeform_data(response, **overrides):
    """The admin form (with every inline formset) of a change or add page, then overrides applied."""
    data = _form_data(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        data.update(_form_data(formset.management_form))
        for form in formset.forms:
            data.update(_form_data(form))
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def submit(client, url, **fields):
    """Submit an admin add or change form with fields changed; return (response, field errors, formset
    errors), the errors empty when it was saved."""
    response = client.post(url, changeform_data(client.get(url), **fields))
    if response.status_code == 302:
        return response, {}, []
    form_errors = response.context["adminform"].form.errors
    formset_errors = [
        str(error) for inline in response.context["inline_admin_formsets"] for error in inline.formset.non_form_errors()
    ]
    return response, form_errors, formset_errors
