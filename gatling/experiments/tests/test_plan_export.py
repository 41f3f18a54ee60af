"""The plan export's commands and errors (the real export runs in
gatling/test/simulations-local.sh, against the real Gatling module)."""

from pathlib import Path

import pytest
from runner.plan_export import (
    MAIN,
    PlanExporter,
    PlanExportError,
    classpath_command,
    export_command,
    java_binary,
)


def test_the_export_gets_the_simulations_properties_before_its_main_class():
    cmd = export_command("java", "a:b", "AggressiveTenant", ["-Disolato.committedRps=25"])
    assert cmd == ["java", "-Disolato.committedRps=25", "-cp", "a:b", MAIN, "AggressiveTenant"]
    assert java_binary({"JAVA_HOME": "/jdk"}) == "/jdk/bin/java" and java_binary({}) == "java"


def test_the_classpath_is_the_gatling_modules_compiled_runtime_one(tmp_path):
    cmd = classpath_command(Path("/repo"), tmp_path / "cp")
    assert cmd[0] == "/repo/mvnw" and "gatling" in cmd and "compile" in cmd
    assert f"-Dmdep.outputFile={tmp_path / 'cp'}" in cmd


def fake_java(tmp_path, script):
    java = tmp_path / "java"
    java.write_text(f"#!/bin/sh\n{script}\n")
    java.chmod(0o755)
    exporter = PlanExporter(Path("/repo"), tmp_path, {"JAVA_HOME": "/none"})
    exporter.java, exporter._classpath = str(java), "cp"
    return exporter


def test_a_bad_property_is_the_simulations_message(tmp_path):
    exporter = fake_java(tmp_path, "echo 'plan export: isolato.startRate is required' >&2; exit 2")
    with pytest.raises(PlanExportError, match=r"^plan export: isolato.startRate is required$"):
        exporter.export("LinearRampCalibration", [], tmp_path / "plan.json")
    assert not (tmp_path / "plan.json").exists()


def test_the_plan_is_written_and_the_jvm_pinned(tmp_path):
    exporter = fake_java(tmp_path, 'echo "{\\"args\\": \\"$*\\"}"')
    out = exporter.export("TenantMix", ["-Disolato.mix=1:3"], tmp_path / "p" / "plan.json", ["env"])
    assert out.read_text() == f'{{"args": "-Disolato.mix=1:3 -cp cp {MAIN} TenantMix"}}\n'
