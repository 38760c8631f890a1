"""cardgen.text.templates: the Jinja every pack text is rendered in — sandboxed, strict about
typos, and capped, so a runaway template is the pack's diagnostic, not a hang or a crash."""

from __future__ import annotations

import jinja2
import pytest
from jinja2.exceptions import SecurityError

from cardgen.text.templates import MAX_TEXT, TemplateLimit, environment


def render(source: str, **values) -> str:
    return environment().from_string(source).render(**values)


def test_a_text_renders_with_the_card_it_is_given():
    assert render("{{ card.name }} ({{ card.stats.age }})",
                  card={"name": "Ann", "stats": {"age": 61}}) == "Ann (61)"
    assert render("{{ '<b>' }} & co") == "<b> & co"  # no escaping: our markup is not HTML


def test_a_typo_is_an_error_never_empty_text():
    with pytest.raises(jinja2.UndefinedError):
        render("{{ card.nmae }}", card={"name": "Ann"})


def test_the_sandbox_refuses_python_internals():
    with pytest.raises(SecurityError):
        render("{{ card.__class__.__mro__ }}", card={"name": "Ann"})


@pytest.mark.parametrize("source", [
    "{% for i in range(6000) %}x{% endfor %}",  # output
    "{{ 'x' * 100000 }}",                       # a value built by *
    "{{ [1] * 100000 }}",
    "{{ 2 ** 1000 }}",                          # a huge number
])
def test_too_much_is_a_template_limit(source):
    with pytest.raises(TemplateLimit):
        render(source)


def test_up_to_the_limit_is_fine():
    assert render("{{ 'x' * %d }}" % MAX_TEXT) == "x" * MAX_TEXT
    assert render("{{ 2 ** 10 }}") == "1024"


def test_one_environment_compiles_each_source_once():
    env = environment()
    assert env is environment()
    assert env.from_string("{{ a }}") is env.from_string("{{ a }}")
    with pytest.raises(jinja2.TemplateSyntaxError):
        env.from_string("{{ a ")
    with pytest.raises(jinja2.TemplateSyntaxError):  # an error is raised again, not cached
        env.from_string("{{ a ")
    assert env.compile_expression("a + 1")(a=2) == 3
