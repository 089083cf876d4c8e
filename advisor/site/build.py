"""`advisor site build` and `advisor site serve`: MkDocs, run on the project's mkdocs.yml, with our settings.

Without a mkdocs.yml at the project root (a team's own records repository), the site is built from the
packaged settings (`advisor/site/mkdocs-base.yml`) and the generator alone, from `<root>/records`. The
project root (advisor/settings.py: the nearest folder upwards with settings or `.git`) is where every
default resolves, so a build started in a subdirectory writes the same site as one started at the root.

The build goes to a hidden sibling folder and replaces `--out` only when it succeeded, so a failed
or interrupted build leaves the previous site as it was. `--out` must be empty, missing, or a
previous build that advisor can prove it wrote (its manifest lists every file there, unchanged:
advisor/site/manifest.py); it may never be, nor hold, a git repository's root or `.git`, the records
folder, the MkDocs docs folder or the home folder. A site_dir from a settings file or mkdocs.yml stays
inside its project.
"""

from __future__ import annotations

from typing import Any

import datetime as dt
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from advisor.site.manifest import check_replaceable, write_manifest
from probes.errors import AdvisorError
from probes.files.output_paths import OutputPathError, check_inside, check_output_folder, protected_folders

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_CONFIG_NAME = "mkdocs.yml"
# Both plugins' banners about MkDocs' future: printed on every build, not about this site.
QUIET_BANNERS = {"DISABLE_MKDOCS_2_WARNING": "true", "NO_MKDOCS_2_WARNING": "1"}


class SiteError(AdvisorError):
    """The site cannot be built as asked; the message names the option, file or setting."""


@dataclass(frozen=True)
class BuildResult:
    """Where the site went, what it holds, and the warnings MkDocs and the generator raised."""

    out: Path
    pages: int
    seconds: float
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        """The `--json` form."""
        return {"out": str(self.out), "pages": self.pages, "seconds": round(self.seconds, 3), "warnings": self.warnings}


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(" ".join(record.getMessage().split()))


@contextmanager
def _quiet_banners() -> Iterator[None]:
    """The plugins' banners silenced for the block: they read only the environment (the site's own settings go
    through the config, `mkdocs_plugin.advisor_extra`)."""
    updates = dict(QUIET_BANNERS)
    saved = {name: os.environ.get(name) for name in updates}
    os.environ.update(updates)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def _collect_warnings() -> Iterator[_Collect]:
    logger = logging.getLogger("mkdocs")
    handler = _Collect()
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def check_records(records_dir: Path | None) -> None:
    """A one-line error for a records folder that is not there."""
    if records_dir is not None and not records_dir.is_dir():
        raise SiteError(f"--records-dir {records_dir}: not a folder")


def packaged_config_text(docs_dir: Path) -> str:
    """A mkdocs.yml that inherits the packaged settings and runs the generator from the installed package."""
    import yaml

    return yaml.safe_dump({
        "INHERIT": str(PACKAGE_DIR / "mkdocs-base.yml"),
        "docs_dir": str(docs_dir),
        "plugins": ["search", {"gen-files": {"scripts": [str(PACKAGE_DIR / "mkdocs_pages.py")]}}],
        "hooks": [str(PACKAGE_DIR / "mkdocs_plugin.py")],
    }, sort_keys=False)


@dataclass(frozen=True)
class SiteConfig:
    """The MkDocs config to run, the records folder to force (None: the config's own), and where it came from."""

    path: Path
    records_dir: Path | None
    packaged: bool
    root: Path


@contextmanager
def resolved_config(config_file: Path | None, records_dir: Path | None, root: Path | None = None) -> Iterator[SiteConfig]:
    """The given config, else <root>/mkdocs.yml, else the packaged settings (then records come from
    <root>/records); `root` is the project root, the current folder when None."""
    check_records(records_dir)
    root = (root or Path.cwd()).absolute()
    if config_file is not None:
        if not config_file.is_file():
            raise SiteError(f"--config {config_file}: no such file (the MkDocs configuration, mkdocs.yml)")
        yield SiteConfig(config_file, records_dir, packaged=False, root=root)
        return
    if (root / DEFAULT_CONFIG_NAME).is_file():
        yield SiteConfig(root / DEFAULT_CONFIG_NAME, records_dir, packaged=False, root=root)
        return
    records = records_dir or root / "records"
    if not records.is_dir():
        raise SiteError(f"no {DEFAULT_CONFIG_NAME} and no records/ folder at the project root {root}: "
                        "pass --records-dir or --config")
    with tempfile.TemporaryDirectory(prefix="advisor-site-") as scratch:
        docs_dir = Path(scratch) / "docs"
        docs_dir.mkdir()
        config = Path(scratch) / DEFAULT_CONFIG_NAME
        config.write_text(packaged_config_text(docs_dir), encoding="utf-8")
        yield SiteConfig(config, records, packaged=True, root=root)


def check_output(out: Path, protected: dict[Path, str], what: str = "--out") -> None:
    """Refuse an output folder that holds the user's work (a repository, the records, the home folder) or
    anything advisor did not write (no manifest of a previous build, or files it does not list)."""
    check_output_folder(out, what, protected)
    check_replaceable(out, what)


def _output_target(site_config: SiteConfig, config: Any, out: Path | None) -> tuple[Path, str]:
    """The folder to write and the flag or setting that named it; a config's site_dir stays inside its project."""
    if out is not None:
        return Path(out).absolute(), "--out"
    if site_config.packaged:
        return site_config.root / "site-build", "the default site folder"
    project = site_config.path.resolve().parent
    what = f"{site_config.path}: site_dir"
    try:
        return check_inside(Path(config.site_dir), project, what), what
    except OutputPathError as error:
        raise SiteError(str(error)) from None


def _protected(site_config: SiteConfig, config: Any) -> dict[Path, str]:
    records = site_config.records_dir or site_config.root / "records"
    extra = [] if site_config.packaged else [(Path(config.docs_dir), "the MkDocs docs_dir"),
                                             (site_config.path.resolve().parent, "the MkDocs project")]
    return protected_folders(records_dir=records, extra=extra)


def _replace(target: Path, staging: Path) -> None:
    """Put the finished build at `target`: the previous one (checked to be advisor's) is moved aside first,
    and deleted only once the new one is in place."""
    if not target.exists():
        staging.rename(target)
        return
    previous = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".previous", dir=target.parent))
    previous.rmdir()
    target.rename(previous)
    try:
        staging.rename(target)
    except BaseException:
        previous.rename(target)
        raise
    shutil.rmtree(previous, ignore_errors=True)


def _load(config_file: Path, **overrides: Any) -> Any:
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError

    try:
        return load_config(str(config_file), **overrides)
    except ConfigurationError as error:
        raise SiteError(f"{config_file}: {' '.join(str(error).split())}") from None


def build_site(config_file: Path | None = None, *, out: Path | None = None, records_dir: Path | None = None,
               strict: bool = False, today: dt.date | None = None, root: Path | None = None) -> BuildResult:
    """Build the static site; SiteError when the config is bad or, with `strict`, on any warning. Defaults
    resolve from `root`, the project root (the current folder when None)."""
    with resolved_config(config_file, records_dir, root) as site_config:
        return _build(site_config, out=out, strict=strict, today=today)


def _build(site_config: SiteConfig, *, out: Path | None, strict: bool, today: dt.date | None) -> BuildResult:
    from mkdocs.commands.build import build
    from mkdocs.exceptions import Abort, MkDocsException

    from advisor.site.mkdocs_plugin import advisor_extra

    config_file = site_config.path
    started = time.perf_counter()
    with _quiet_banners(), _collect_warnings() as warnings:
        config = _load(config_file, strict=strict)
        config.extra["advisor"] = advisor_extra(config.extra, site_config.records_dir, today)
        target, what = _output_target(site_config, config, out)
        try:
            check_output(target, _protected(site_config, config), what)
        except OutputPathError as error:
            raise SiteError(str(error)) from None
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".building", dir=target.parent))
        config["site_dir"] = str(staging)
        try:
            config.plugins.on_startup(command="build", dirty=False)
            try:
                build(config)
            finally:
                config.plugins.on_shutdown()
        except Abort:
            shutil.rmtree(staging, ignore_errors=True)
            first = warnings.messages[0] if warnings.messages else "see the log above"
            raise SiteError(f"strict build failed with {len(warnings.messages)} warning(s); first: {first}") from None
        except (MkDocsException, OSError) as error:
            shutil.rmtree(staging, ignore_errors=True)
            raise SiteError(f"site build failed: {' '.join(str(error).split())}") from None
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        # The built site is output, not source: it ignores itself, so it stays out of the user's `git status`.
        (staging / ".gitignore").write_text("# written by advisor site build\n*\n", encoding="utf-8")
        write_manifest(staging)
        try:
            check_replaceable(target, what)  # again: the folder may have changed during the build
            _replace(target, staging)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    pages = sum(1 for _ in target.rglob("index.html"))
    return BuildResult(out=target, pages=pages, seconds=time.perf_counter() - started, warnings=list(warnings.messages))


def serve_site(config_file: Path | None = None, *, records_dir: Path | None = None, dev_addr: str = "127.0.0.1:8000",
               today: dt.date | None = None, root: Path | None = None) -> None:
    """Preview with live reload: edits to records, site/ and the generator rebuild the pages."""
    from mkdocs.commands.serve import serve
    from mkdocs.exceptions import MkDocsException

    from advisor.site.address import serve_address
    from advisor.site.mkdocs_plugin import advisor_extra

    serve_address(dev_addr)  # one line naming --addr, not the OverflowError of a bind to port 70000
    with resolved_config(config_file, records_dir, root) as site_config:
        records = site_config.records_dir
        watch = [str(records.resolve())] if records is not None else []
        with _quiet_banners():
            # `extra` as an override, so each rebuild's fresh load of the config gets the settings too.
            configured = _load(site_config.path).extra
            extra = {**configured, "advisor": advisor_extra(configured, records, today)}
            try:
                serve(config_file=str(site_config.path), livereload=True, dev_addr=dev_addr, watch=watch, extra=extra)
            except MkDocsException as error:
                raise SiteError(f"site serve failed: {' '.join(str(error).split())}") from None
