"""The Gatling module's plan of a simulation, for the open-loop referee (issue 13): the same
`-Disolato.*` properties Gatling gets, given to dev.isolato.gatling.plan.PlanExport, print the
classes, steps and exact per-tenant counts the simulation sends; `openloop -plan` sends them.
No plan is derived here.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

MAIN = "dev.isolato.gatling.plan.PlanExport"


class PlanExportError(RuntimeError):
    """The plan could not be exported (a bad property: the simulation's own message)."""


def classpath_command(repo_root: Path, out: Path) -> list[str]:
    """Compiles the Gatling module and writes its runtime classpath to `out`."""
    return [
        str(repo_root / "mvnw"), "-B", "-q", "--no-transfer-progress",
        "-f", str(repo_root / "pom.xml"), "-pl", "gatling", "-am", "compile",
        "dependency:build-classpath", "-Dmdep.includeScope=runtime", f"-Dmdep.outputFile={out}",
    ]  # fmt: skip


def export_command(
    java: str, classpath: str, simulation: str, properties: Sequence[str]
) -> list[str]:
    """`java -Disolato.…=… -cp … PlanExport <simulation>` (properties: `-Disolato.k=v`)."""
    return [java, *properties, "-cp", classpath, MAIN, simulation]


def java_binary(environ: Mapping[str, str]) -> str:
    home = environ.get("JAVA_HOME")
    return str(Path(home) / "bin" / "java") if home else "java"


class PlanExporter:
    """Exports plans with the repository's Gatling module; its classpath is built once."""

    def __init__(self, repo_root: Path, work: Path, environ: Mapping[str, str] = os.environ):
        self.repo_root, self.work, self.java = repo_root, work, java_binary(environ)
        self._classpath: str | None = None

    def classpath(self) -> str:
        if self._classpath is None:
            out = self.work / "gatling.classpath"
            self.work.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(
                classpath_command(self.repo_root, out), capture_output=True, text=True
            )
            if done.returncode != 0:
                raise PlanExportError(
                    f"cannot build the Gatling module's classpath:\n{done.stdout}{done.stderr}"
                )
            classes = self.repo_root / "gatling" / "target" / "classes"
            self._classpath = f"{classes}{os.pathsep}{out.read_text().strip()}"
        return self._classpath

    def export(
        self, simulation: str, properties: Sequence[str], out: Path, prefix: Sequence[str] = ()
    ) -> Path:
        """Writes the plan to `out`; `prefix` pins the JVM (taskset, the generator's CPUs)."""
        cmd = [*prefix, *export_command(self.java, self.classpath(), simulation, properties)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise PlanExportError(done.stderr.strip() or f"plan export failed ({done.returncode})")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(done.stdout)
        return out
