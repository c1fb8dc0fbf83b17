"""Every COMPANION_* environment variable is read in one place (companion/settings.py), which documents each."""
import ast
import re
from pathlib import Path

from companion import settings
from companion.web import create_app
from helpers import sources

PACKAGE = Path(__file__).resolve().parents[1] / "companion"
# a static site's app config key (companion site --companion-url), not the environment
NOT_VARIABLES = {"COMPANION_URL"}


def _reads_of_the_environment(tree: ast.AST):
    """Expressions that read os.environ or call getenv (os.environ.get(...), os.environ[...], "X" in os.environ)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Call, ast.Subscript, ast.Compare)) and re.search(r"\benviron\b|\bgetenv\b",
                                                                                  ast.unparse(node)):
            yield node


def test_the_environment_is_read_for_companion_names_only_in_settings():
    readers = []
    for path, tree in sources.trees().items():
        for node in _reads_of_the_environment(tree):
            names = [c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if path.name != "settings.py" and any(n.startswith(settings.PREFIX) for n in names):
                readers.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
            if path.name != "settings.py" and re.search(r"\benviron\b", ast.unparse(node)) \
                    and not any(isinstance(c, ast.Constant) for c in ast.walk(node)):
                readers.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)} "
                               "(reads a variable named elsewhere)")
    assert not readers, "read COMPANION_ settings through companion.settings.environment():\n" + "\n".join(readers)


def test_every_companion_name_in_the_package_is_a_documented_setting():
    named = {m for path in PACKAGE.rglob("*.py") for m in re.findall(r"\bCOMPANION_[A-Z_]+",
                                                                      path.read_text(encoding="utf-8"))}
    unknown = named - NOT_VARIABLES - {settings.variable(s) for s in settings.SETTINGS} - {"COMPANION_"}
    assert not unknown
    doc = settings.__doc__
    assert all(f"| {name} |" in doc for name in settings.SETTINGS)


def test_the_settings_as_set_or_unset():
    env = settings.environment({"COMPANION_BASE_URL": "https://x.example", "COMPANION_SECRET_KEY": "",
                                "BASE_URL": "not ours"})
    assert env["BASE_URL"] == "https://x.example" and env["SECRET_KEY"] == "" and env["DATABASE_URL"] is None
    assert set(env) == set(settings.SETTINGS)


def test_the_config_wins_over_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_BASE_URL", "https://env.example")
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    assert create_app({"TESTING": True}).config["BASE_URL"] == "https://env.example"
    app = create_app({"TESTING": True, "BASE_URL": "https://config.example",
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'config.sqlite'}"})
    assert app.config["BASE_URL"] == "https://config.example" and app.config["DATABASE_URL"].endswith("config.sqlite")
