"""jfr_hot.py: the summary of a recording's events, from synthetic events in jfr's JSON shape."""

from isolato_bench.profile import jfr_hot as j


def frame(cls: str, method: str) -> dict:
    return {"method": {"type": {"name": cls}, "name": method}}


def sample(thread: str, *frames: dict) -> dict:
    return {
        "type": "jdk.ExecutionSample",
        "values": {"sampledThread": {"javaName": thread}, "stackTrace": {"frames": list(frames)}},
    }


RECONCILE = frame("dev/isolato/controller/SloClassReconciler", "reconcile")
APPLY = frame("dev/isolato/controller/PoolWorkflow", "apply")
JSON = frame("com/fasterxml/jackson/databind/ObjectMapper", "writeValue")


def test_self_inclusive_and_threads_from_the_samples():
    events = [
        sample("pool-2-thread-1", JSON, APPLY, RECONCILE),
        sample("pool-2-thread-7", JSON, APPLY, APPLY, RECONCILE),  # recursion counts once
        sample("C2 CompilerThread0", frame("java/lang/String", "hashCode")),
        sample("idle"),  # no stack: not a CPU sample
        {"type": "jdk.CPULoad", "values": {"jvmUser": 0.2, "jvmSystem": 0.1}},
        {"type": "jdk.CPULoad", "values": {"jvmUser": 0.4, "jvmSystem": 0.1}},
        {
            "type": "jdk.ThreadCPULoad",
            "values": {"eventThread": {"javaName": "x-1"}, "user": 0.1, "system": 0.0},
        },
    ]
    p = j.summarize(events)
    assert p.samples == 3
    assert p.self_counts["com.fasterxml.jackson.databind.ObjectMapper.writeValue"] == 2
    assert p.inclusive["dev.isolato.controller.PoolWorkflow.apply"] == 2
    assert p.by_thread == {"pool-N-thread-N": 2, "CN CompilerThreadN": 1}
    text = j.report(p, 10, "dev.isolato.")
    assert "JVM CPU: mean 40.0 % of the machine over 2 s" in text
    assert " 66.7 %  dev.isolato.controller.SloClassReconciler.reconcile" in text
    mine = text.split("inclusive, dev.isolato.*")[1].split("inclusive, any")[0]
    assert "java.lang.String.hashCode" not in mine
    assert "10.0 %  x-N" in text


def test_an_unreadable_file_is_an_error_not_a_traceback(tmp_path, capsys):
    assert j.main([str(tmp_path / "missing.jfr")]) == 1
    assert "cannot read" in capsys.readouterr().err
