"""Install every dependency at the lowest version pyproject.toml allows, in a virtual environment of its own
(.venv-floors), and run a smoke test there: the floors we declare are floors that work (`make test-floors`).

    python scripts/floors.py [pytest arguments...]

The constraints pin each declared dependency, core and extras alike, to the first release at or above its
floor (`name>=1.5` becomes `name==1.5.2` when 1.5.2 came first); what they need in turn is left to pip."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-floors"
EXTRAS = ("plot", "web", "rl", "dask", "parquet", "notebook")
SMOKE = ["tests/test_cli.py", "tests/test_cli_manners.py", "tests/test_extras.py", "tests/test_web_api.py",
         "tests/test_notebook.py", "tests/test_docs.py", "-k", "not sigkill and not workers"]


def floors() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in EXTRAS:
        wanted += project["optional-dependencies"][extra]
    pins = {}
    for requirement in wanted:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*>=\s*([^,;\s]+)\s*", requirement)
        if match is None:
            raise SystemExit(f"{requirement!r}: a dependency is declared as name>=floor")
        pins[match.group(1).lower()] = first_release(match.group(1), match.group(2))
    return [f"{name}=={version}" for name, version in sorted(pins.items())]


def first_release(name: str, floor: str) -> str:
    """The oldest release of ``name`` at or above ``floor`` on the index pip uses."""
    from packaging.version import Version

    listed = subprocess.run([sys.executable, "-m", "pip", "index", "versions", name], capture_output=True,
                            text=True, check=True).stdout
    line = next(ln for ln in listed.splitlines() if ln.strip().startswith("Available versions:"))
    return str(min(v for v in released(line.split(":", 1)[1].split(",")) if v >= Version(floor)))


def released(texts: list[str]) -> list:
    """The final releases among an index's version strings; one that is not a version by today's rules (an
    old upload's, such as distributed's '1.6.1.linux-x86_64') is passed over."""
    from packaging.version import InvalidVersion, Version

    versions = []
    for text in texts:
        try:
            version = Version(text.strip())
        except InvalidVersion:
            continue
        if not version.is_prerelease:
            versions.append(version)
    return versions


def main(pytest_args: list[str]) -> int:
    pins = floors()
    constraints = VENV.with_suffix(".txt")
    constraints.write_text("\n".join(pins) + "\n", encoding="utf-8")
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-c", str(constraints),
                    "-e", f"{ROOT}[{','.join(EXTRAS)}]", "pytest>=8", "pytest-xdist>=3.5",
                    "httpx>=0.27,<0.28",  # the TestClient of the oldest starlette fastapi 0.110 takes
                    "hypothesis>=6.100"], check=True)
    print("installed at their floors:", ", ".join(pins), flush=True)
    return subprocess.run([str(python), "-m", "pytest", "-q", "-n", "2", *(pytest_args or SMOKE)], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
