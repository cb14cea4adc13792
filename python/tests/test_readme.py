"""README.md's "From Python" example runs and prints what the README shows under it."""

import contextlib
import io

from conftest import ROOT


def blocks_after(heading):
    """The fenced blocks of the section under `heading`, each as (language, text)."""
    text = (ROOT / "README.md").read_text()
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    out, inside, lang, lines = [], False, "", []
    for line in section.splitlines():
        if line.startswith("```"):
            if inside:
                out.append((lang, "\n".join(lines) + "\n"))
                inside, lines = False, []
            else:
                inside, lang = True, line[3:].strip()
        elif inside:
            lines.append(line)
    return out


def test_the_python_example_prints_what_the_readme_shows():
    blocks = blocks_after("## From Python")
    code = next(b for lang, b in blocks if lang == "python")
    shown = next(b for lang, b in blocks if lang == "text")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue() == shown
