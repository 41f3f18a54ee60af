"""Experiment definitions (gatling/experiments/defs/<name>.yaml): loading, validation, resolution.

A definition is data: its parameters (each read from one environment variable), SLO classes,
tenants, the Gatling simulation with its properties, where its results are stored, and the
steps run after the classes exist, after the tenants exist and at the end. `load` checks the
structure, every template and every step, then resolves the definition once with its default
parameters, so a mistake fails with the file and the field before anything is created.
`Definition.resolve(environ)` gives the `Experiment` a run executes. docs/gatling.md describes
the format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from . import templates
from .verdict import FIELDS as VERDICT_FIELDS

SIMULATIONS = ("LinearRampCalibration", "AggressiveTenant", "CoLocatedRamp", "TenantMix")
HOOKS = ("afterClasses", "afterTenants", "finish")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PROPERTY = re.compile(r"^[A-Za-z][A-Za-z0-9_.]*$")
# the latency target of every definition's classes (docs/results/README.md); a class may set
# its own targetMs (a small pod whose tail latency is set by CFS throttling: httpbin-alone)
LATENCY = {"percentile": 95, "targetMs": 50}
MAX_TARGET_MS = 10_000


class DefinitionError(ValueError):
    """A definition that cannot be used; the message names the file and the field."""

    def __init__(self, file: Path | str, where: str, message: str) -> None:
        super().__init__(f"{file}: {where}: {message}" if where else f"{file}: {message}")


class ParameterError(ValueError):
    """An environment value a definition's parameter does not accept."""


# ---------------------------------------------------------------------------- resolved model


@dataclass(frozen=True)
class SloClass:
    name: str
    cpu: str
    memory: str
    priority: int | None  # None: the API's default
    min_replicas: int
    max_replicas: int
    per_pod_cutoff_rps: float
    admission: str | None = None
    pivot_percent: int | None = None  # None: the API's default
    # a provider's service instead of saas-bench (docs/bring-your-service.md), as the API takes it
    workload: Mapping[str, Any] | None = None
    tenant_key: str | None = None
    target_ms: float = LATENCY["targetMs"]  # the p95 target
    # the endpoints its tenants call, {method, path, weight}: the simulation's request, which the
    # class carries so that an in-context calibration replays it (spec.requestMix)
    request_mix: tuple[Mapping[str, Any], ...] | None = None

    def body(self) -> dict[str, Any]:
        """The POST /api/v1/slo-classes body."""
        spec: dict[str, Any] = {
            "latency": LATENCY | {"targetMs": self.target_ms},
            "resources": {"cpu": self.cpu, "memory": self.memory},
        }
        if self.priority is not None:
            spec["priority"] = self.priority
        spec |= {
            "minReplicas": self.min_replicas,
            "maxReplicas": self.max_replicas,
            "perPodCutoffRps": self.per_pod_cutoff_rps,
        }
        if self.admission is not None:
            spec["admission"] = self.admission
        if self.pivot_percent is not None:
            spec["pivotPercent"] = self.pivot_percent
        if self.workload is not None:
            spec["workload"] = dict(self.workload)
        if self.tenant_key is not None:
            spec["tenantKey"] = self.tenant_key
        if self.request_mix is not None:
            spec["requestMix"] = [dict(e) for e in self.request_mix]
        return {"name": self.name, "spec": spec}


@dataclass(frozen=True)
class Tenant:
    tenant_id: str
    slo_class: str
    committed_rps: float
    profile: Mapping[str, int]

    def body(self) -> dict[str, Any]:
        """The POST /api/v1/tenants body."""
        return {
            "tenantId": self.tenant_id,
            "sloClass": self.slo_class,
            "committedRps": self.committed_rps,
            "profile": dict(self.profile),
        }


@dataclass(frozen=True)
class Calibrate:
    """Post a stored run (results/<run>) as the calibration of a class."""

    slo_class: str
    run: PurePosixPath


@dataclass(frozen=True)
class Verdict:
    """Store the class's plan and the verdict of the run's first step (runner.verdict)."""

    slo_class: str
    fields: tuple[str | Mapping[str, Any], ...]


@dataclass(frozen=True)
class DeleteCreated:
    """Delete the definition's tenants, then its classes (frees the node for the next run)."""


Step = Calibrate | Verdict | DeleteCreated


@dataclass(frozen=True)
class Simulation:
    name: str
    service_urls: Mapping[str, str]  # simulation property -> class whose Service URL it gets
    properties: Mapping[str, Any]
    # what each request is for a provider's service: {method, path} or a weighted `mix` of
    # them, and tenantHeader; None: saas-bench's route. Both instruments send it: Gatling from
    # the -D properties, the referee from the plan the same properties export.
    request: Mapping[str, Any] | None = None

    def args(self, urls: Mapping[str, str]) -> list[str]:
        """The -Disolato.* arguments, given each class's Service URL."""
        out = [f"-Disolato.{p}={urls[c]}" for p, c in self.service_urls.items()]
        out += [f"-Disolato.{k}={templates.text(v)}" for k, v in self.properties.items()]
        out += [f"-Disolato.{k}={v}" for k, v in request_properties(self.request).items()]
        return out


def first_request(
    request: Mapping[str, Any] | None, tenant: str
) -> tuple[str, str, dict[str, str]]:
    """Method, path and headers of a tenant's first request as the instruments send it (the
    readiness probe's): saas-bench's route, or the first endpoint of a provider's mix."""
    if not request:
        return "POST", f"/v1/tenants/{tenant}/requests", {}
    first = (request.get("mix") or [request])[0]
    header = request.get("tenantHeader")
    path = str(first["path"]).replace("{tenant}", tenant)
    return str(first.get("method", "POST")).upper(), path, {header: tenant} if header else {}


def request_mix(request: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """A simulation.request as a class's spec.requestMix: its mix, or its one endpoint."""
    mix = request.get("mix") or [{"method": request.get("method", "POST"), "path": request["path"]}]
    return tuple(
        {
            "method": str(e.get("method", "POST")).upper(),
            "path": e["path"],
            "weight": e.get("weight", 1),
        }
        for e in mix
    )


def request_properties(request: Mapping[str, Any] | None) -> dict[str, str]:
    """The simulations' `requests` (METHOD:/path*weight,...: RequestMix of the Gatling module)
    and `tenantHeader` properties of a definition's simulation.request."""
    if not request:
        return {}
    entries = [f"{e['method']}:{e['path']}*{e['weight']}" for e in request_mix(request)]
    out = {"requests": ",".join(entries)}
    if request.get("tenantHeader"):
        out["tenantHeader"] = str(request["tenantHeader"])
    return out


@dataclass(frozen=True)
class Experiment:
    """A definition resolved with its parameters: what one run creates, runs and stores."""

    name: str
    classes: tuple[SloClass, ...]
    tenants: tuple[Tenant, ...]
    simulation: Simulation
    calibrate: bool
    results: PurePosixPath  # the stored results' directory, relative to results/
    hooks: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)

    def steps(self, hook: str) -> tuple[Step, ...]:
        return self.hooks.get(hook, ())


# ---------------------------------------------------------------------------- parameters


@dataclass(frozen=True)
class Parameter:
    """One environment variable of a definition, bound to a name its templates use.

    int: an integer (>= min); choice: one of choices; text: a string matching pattern, whose
    named groups are bound too (digits as integers).
    """

    name: str
    env: str
    kind: str
    default: Any
    help: str = ""
    minimum: int | None = None
    choices: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None

    def names(self) -> set[str]:
        return {self.name} | (set(self.pattern.groupindex) if self.pattern else set())

    def bind(self, raw: str | None) -> dict[str, Any]:
        """The names this parameter binds for an environment value (None: the default)."""
        if raw is None or raw == "":
            value = self.default
            if value is None:
                return {n: None for n in self.names()}
            raw = str(value)
        hint = f" ({self.help})" if self.help else ""
        if self.kind == "int":
            if not re.fullmatch(r"-?[0-9]+", raw) or (
                self.minimum is not None and int(raw) < self.minimum
            ):
                low = f" >= {self.minimum}" if self.minimum is not None else ""
                raise ParameterError(f"{self.env} must be an integer{low}{hint}, not '{raw}'")
            return {self.name: int(raw)}
        if self.kind == "choice":
            if raw not in self.choices:
                raise ParameterError(
                    f"{self.env} must be {' or '.join(self.choices)}{hint}, not '{raw}'"
                )
            return {self.name: raw}
        assert self.pattern is not None
        m = self.pattern.fullmatch(raw)
        if not m:
            wanted = self.help or f"a match of {self.pattern.pattern}"
            raise ParameterError(f"{self.env} must be {wanted}, not '{raw}'")
        groups = {k: int(v) if v.isdigit() else v for k, v in m.groupdict().items()}
        return {self.name: raw, **groups}

    def usage(self) -> str:
        """ENV=default, its choices, or N: how `list` shows the parameter."""
        if self.kind == "choice":
            return f"{self.env}=" + "|".join(sorted(self.choices, key=lambda c: c != self.default))
        return f"{self.env}={'N' if self.default is None else self.default}"


@dataclass(frozen=True)
class Lookup:
    """A name bound to cases[value of the parameter `by`]."""

    name: str
    by: str
    cases: Mapping[str, Any]


# ---------------------------------------------------------------------------- loading


class _Fields:
    """A mapping being read, with the path of the field for error messages."""

    def __init__(self, file: Path, where: str, data: Any) -> None:
        self.file, self.where = file, where
        if not isinstance(data, dict):
            self.fail("", f"must be a mapping, not {type(data).__name__}")
        self.data: dict[str, Any] = data
        self.read: set[str] = set()

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str, message: str) -> None:
        raise DefinitionError(self.file, self.path(key) if key else self.where, message)

    def get(
        self, key: str, types: type | tuple[type, ...], default: Any = ..., *, template: bool = True
    ) -> Any:
        self.read.add(key)
        if key not in self.data:
            if default is ...:
                self.fail(key, "is required")
            return default
        value = self.data[key]
        if template and isinstance(value, str) and "{" in value:
            return value  # typed once rendered
        if isinstance(value, bool) and bool not in _tuple(types):
            self.fail(key, f"must be {_names(types)}, not a boolean")
        if not isinstance(value, types):
            self.fail(key, f"must be {_names(types)}, not {type(value).__name__} {value!r}")
        return value

    def child(self, key: str, value: Any) -> _Fields:
        return _Fields(self.file, self.path(key), value)

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            known = ", ".join(sorted(self.read))
            self.fail("", f"unknown field(s) {', '.join(unknown)} (known: {known})")


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _names(types: type | tuple[type, ...]) -> str:
    words = {
        int: "an integer",
        float: "a number",
        str: "a string",
        bool: "true or false",
        dict: "a mapping",
        list: "a list",
        type(None): "null",
    }
    return " or ".join(words.get(t, t.__name__) for t in _tuple(types))


_NUMBER = (int, float)


@dataclass(frozen=True)
class Definition:
    """A loaded, validated definition; `resolve` binds its parameters."""

    name: str
    file: Path
    description: str
    parameters: tuple[Parameter, ...]
    lookups: tuple[Lookup, ...]
    body: Mapping[str, Any]  # classes, tenants, simulation, calibrate, results, hooks (templates)

    def names(self) -> set[str]:
        out: set[str] = set()
        for p in self.parameters:
            out |= p.names()
        return out | {lk.name for lk in self.lookups}

    def bindings(self, environ: Mapping[str, str]) -> dict[str, Any]:
        env: dict[str, Any] = {}
        for p in self.parameters:
            env.update(p.bind(environ.get(p.env)))
        for lk in self.lookups:
            env[lk.name] = lk.cases[env[lk.by]]
        return env

    def resolve(self, environ: Mapping[str, str]) -> Experiment:
        """The experiment for these environment values (ParameterError on a bad value)."""
        env = self.bindings(environ)
        return _experiment(self, templates.render_all(dict(self.body), env), env)


def load(file: Path) -> Definition:
    """Reads and validates one definition file (DefinitionError names the file and field)."""
    try:
        data = yaml.safe_load(file.read_text())
    except yaml.YAMLError as e:
        raise DefinitionError(file, "", f"is not valid YAML: {e}") from None
    top = _Fields(file, "", data)
    description = top.get("description", str, template=False)
    parameters = tuple(
        _parameter(top.child(f"parameters.{n}", v), n)
        for n, v in top.get("parameters", dict, {}, template=False).items()
    )
    bound = {n for p in parameters for n in p.names()}
    lookups = tuple(
        _lookup(top.child(f"lookups.{n}", v), n, parameters)
        for n, v in top.get("lookups", dict, {}, template=False).items()
    )
    body = {
        k: top.get(k, t, d, template=False)
        for k, t, d in (
            ("classes", list, ...),
            ("tenants", list, ...),
            ("simulation", dict, ...),
            ("calibrate", bool, True),
            ("results", str, file.stem),
            *((h, list, []) for h in HOOKS),
        )
    }
    top.done()
    names = bound | {lk.name for lk in lookups}
    for key, value in body.items():
        try:
            templates.check_all(value, names)
        except templates.TemplateError as e:
            raise DefinitionError(file, key, str(e)) from None
    d = Definition(file.stem, file, description, parameters, lookups, body)
    try:
        d.resolve({})  # every field typed and checked with the defaults
    except ParameterError as e:
        raise DefinitionError(file, "parameters", f"default: {e}") from None
    return d


def _parameter(f: _Fields, name: str) -> Parameter:
    if not _IDENT.match(name):
        f.fail("", "a parameter's name must be an identifier")
    env = f.get("env", str, template=False)
    if not _ENV_NAME.match(env):
        f.fail("env", f"must be an environment variable's name (A-Z, 0-9, _), not '{env}'")
    help_text = f.get("help", str, "", template=False)
    if "choices" in f.data:
        choices = tuple(str(c) for c in f.get("choices", list, template=False))
        default = f.get("default", str, template=False)
        f.done()
        if default not in choices:
            f.fail("default", f"'{default}' is not one of the choices {list(choices)}")
        return Parameter(name, env, "choice", default, help_text, choices=choices)
    if "pattern" in f.data:
        try:
            pattern = re.compile(f.get("pattern", str, template=False))
        except re.error as e:
            f.fail("pattern", f"is not a regular expression: {e}")
        for g in pattern.groupindex:
            if not _IDENT.match(g):
                f.fail("pattern", f"group name '{g}' must be an identifier")
        default = f.get("default", (str, type(None)), template=False)
        f.done()
        return Parameter(name, env, "text", default, help_text, pattern=pattern)
    default = f.get("default", (int, type(None)), template=False)
    minimum = f.get("min", int, None, template=False)
    f.done()
    return Parameter(name, env, "int", default, help_text, minimum=minimum)


def _lookup(f: _Fields, name: str, parameters: tuple[Parameter, ...]) -> Lookup:
    by = f.get("by", str, template=False)
    cases = f.get("cases", dict, template=False)
    f.done()
    param = next((p for p in parameters if p.name == by), None)
    if param is None or param.kind != "choice":
        f.fail("by", f"'{by}' is not a choice parameter of this definition")
    assert param is not None
    missing = [c for c in param.choices if c not in cases]
    if missing:
        f.fail("cases", f"no case for {', '.join(missing)} (choices of {by})")
    return Lookup(name, by, cases)


# ---------------------------------------------------------------------------- resolving


def _experiment(d: Definition, body: dict[str, Any], env: dict[str, Any]) -> Experiment:
    file = d.file
    top = _Fields(file, "", body)
    classes = tuple(
        _slo_class(top.child(f"classes[{i}]", c)) for i, c in enumerate(top.get("classes", list))
    )
    names = [c.name for c in classes]
    if not classes:
        top.fail("classes", "at least one class is required")
    if len(set(names)) != len(names):
        top.fail("classes", f"class names repeat: {names}")
    tenants: list[Tenant] = []
    for i, t in enumerate(top.get("tenants", list)):
        tenants += _tenants(top.child(f"tenants[{i}]", t), names)
    ids = [t.tenant_id for t in tenants]
    if len(set(ids)) != len(ids):
        top.fail("tenants", f"tenant ids repeat: {ids}")
    simulation = _simulation(top.child("simulation", top.get("simulation", dict)), names)
    classes = _with_request_mix(top, classes, simulation)
    calibrate = top.get("calibrate", bool)
    if calibrate:
        _require_admission_off(top, classes)
    _require_declared_capacity(top, classes, tenants)
    results = _relative(top, "results", top.get("results", str))
    hooks = {
        h: tuple(_step(top, f"{h}[{i}]", s, names) for i, s in enumerate(top.get(h, list)))
        for h in HOOKS
    }
    top.done()
    return Experiment(d.name, classes, tuple(tenants), simulation, calibrate, results, hooks, env)


def _with_request_mix(
    top: _Fields, classes: tuple[SloClass, ...], simulation: Simulation
) -> tuple[SloClass, ...]:
    """The classes the simulation ramps carry its request (a provider's service): an in-context
    calibration of them replays what the instruments sent. Its tenant header must be theirs."""
    if not simulation.request:
        return classes
    ramped = set(simulation.service_urls.values())
    header = simulation.request.get("tenantHeader")
    out = []
    for c in classes:
        if c.name in ramped:
            if header and c.tenant_key not in (None, f"header:{header}"):
                top.fail(
                    "simulation.request.tenantHeader",
                    f"'{header}' is not where class {c.name} finds the tenant ({c.tenant_key})",
                )
            c = replace(c, request_mix=request_mix(simulation.request))
        out.append(c)
    return tuple(out)


def _require_declared_capacity(
    f: _Fields, classes: tuple[SloClass, ...], tenants: list[Tenant]
) -> None:
    """The API admits a class's tenants up to maxReplicas x perPodCutoffRps before any calibration
    (docs/api.md, 422 Capacity exceeded); checked here so that a definition fails when it is loaded,
    not minutes into a run after its classes were created."""
    for c in classes:
        committed = sum(t.committed_rps for t in tenants if t.slo_class == c.name)
        capacity = c.max_replicas * c.per_pod_cutoff_rps
        if committed > capacity:
            f.fail(
                "tenants",
                f"class {c.name}'s tenants commit {committed:g} req/s, more than its declared "
                f"capacity {capacity:g} (maxReplicas {c.max_replicas} x perPodCutoffRps "
                f"{c.per_pod_cutoff_rps:g}); the API would refuse the last onboarding with 422",
            )


def _require_admission_off(f: _Fields, classes: tuple[SloClass, ...]) -> None:
    """A calibration measures the pods, so no request may be answered by admission instead: a 429
    returns in a millisecond and hides the knee (and each posted cut-off lowers the next run's
    admitted rates)."""
    enforced = [c.name for c in classes if c.admission != "off"]
    if enforced:
        f.fail(
            "classes",
            f"a calibrating experiment (calibrate: true) needs admission: off on every class; "
            f"{', '.join(enforced)} would answer 429 past the admitted rate and hide the knee",
        )


def _relative(f: _Fields, key: str, value: str) -> PurePosixPath:
    p = PurePosixPath(value)
    if not value or p.is_absolute() or ".." in p.parts:
        f.fail(key, f"must be a relative path below results/ without '..', not '{value}'")
    return p


def _slo_class(f: _Fields) -> SloClass:
    name = f.get("name", str)
    if not _DNS_LABEL.match(name):
        f.fail("name", f"'{name}' is not a DNS label (a-z, 0-9, '-')")
    c = SloClass(
        name=name,
        cpu=str(f.get("cpu", (str, int, float))),
        memory=str(f.get("memory", str)),
        priority=f.get("priority", int),
        min_replicas=f.get("minReplicas", int),
        max_replicas=f.get("maxReplicas", int),
        per_pod_cutoff_rps=f.get("perPodCutoffRps", _NUMBER),
        admission=f.get("admission", (str, type(None)), None),
        pivot_percent=f.get("pivotPercent", (int, type(None)), None),
        workload=f.get("workload", (dict, type(None)), None),
        tenant_key=f.get("tenantKey", (str, type(None)), None),
        target_ms=f.get("targetMs", _NUMBER, LATENCY["targetMs"], template=False),
    )
    f.done()
    if not 0 < c.target_ms <= MAX_TARGET_MS:
        f.fail("targetMs", f"must be > 0 and <= {MAX_TARGET_MS} ms, not {c.target_ms}")
    if c.min_replicas < 1 or c.max_replicas < c.min_replicas:
        f.fail(
            "maxReplicas",
            f"need 1 <= minReplicas <= maxReplicas, not {c.min_replicas} and {c.max_replicas}",
        )
    if c.admission not in (None, "enforce", "off"):
        f.fail("admission", f"must be enforce or off, not '{c.admission}'")
    return c


def _profile(f: _Fields) -> dict[str, int]:
    profile = f.get("profile", (int, dict))
    if isinstance(profile, int):
        return {"cpu": profile, "memory": 0, "io": 0}
    p = f.child("profile", profile)
    out = {k: p.get(k, int) for k in ("cpu", "memory", "io")}
    p.done()
    return out


def _tenants(f: _Fields, classes: list[str]) -> list[Tenant]:
    """A group of tenants <prefix>-t1..tN of one class (prefix: the class's name)."""
    cls = f.get("class", str)
    if cls not in classes:
        f.fail("class", f"'{cls}' is not one of this definition's classes {classes}")
    prefix = f.get("prefix", str, cls)
    committed = f.get("committedRps", (int, float, list))
    if isinstance(committed, list):  # one rate per tenant; their count is the group's size
        rates = committed
        if "count" in f.data:
            f.fail("count", "is given by committedRps' length when committedRps is a list")
    else:
        count = f.get("count", int)
        if count < 1:
            f.fail("count", f"must be >= 1, not {count}")
        rates = [committed] * count
    if not rates or not all(isinstance(r, _NUMBER) and r > 0 for r in rates):
        f.fail("committedRps", f"must be positive numbers, not {committed!r}")
    profile = _profile(f)
    f.done()
    return [Tenant(f"{prefix}-t{i}", cls, r, profile) for i, r in enumerate(rates, 1)]


def _endpoint(f: _Fields, *, weighted: bool) -> None:
    """One endpoint of a request mix: method, path (absolute; {tenant} for a path tenant key),
    and in a mix its weight (>= 1)."""
    if not re.fullmatch(r"[A-Za-z]+", str(f.get("method", str, "POST"))):
        f.fail("method", "is not an HTTP method")
    if not re.fullmatch(r"/[^*\s,]*", str(f.get("path", str))):
        f.fail("path", "must start with / and hold no space, comma or *")
    if weighted and (w := f.get("weight", int, 1)) < 1:
        f.fail("weight", f"must be >= 1, not {w}")


def _simulation(f: _Fields, classes: list[str]) -> Simulation:
    name = f.get("name", str)
    if name not in SIMULATIONS:
        f.fail("name", f"'{name}' is not a simulation ({', '.join(SIMULATIONS)})")
    urls = f.get("serviceUrls", dict)
    for prop, cls in urls.items():
        if not _PROPERTY.match(str(prop)):
            f.fail(f"serviceUrls.{prop}", "is not a property name")
        if cls not in classes:
            f.fail(f"serviceUrls.{prop}", f"'{cls}' is not one of this definition's classes")
    props = f.get("properties", dict)
    for k, v in props.items():
        if not _PROPERTY.match(str(k)) or k in ("runId", "outputDir", "requests", "tenantHeader"):
            f.fail(f"properties.{k}", "is not a property a definition may set")
        if isinstance(v, (dict, list)) or v is None:
            f.fail(f"properties.{k}", f"must be a string or a number, not {v!r}")
    request = f.get("request", (dict, type(None)), None)
    if request is not None:
        r = f.child("request", request)
        mix = r.get("mix", list, None)
        if mix is None:
            _endpoint(r, weighted=False)
        else:
            if not mix or "method" in request or "path" in request:
                r.fail(
                    "mix", "is a non-empty list of {method, path, weight}, instead of method, path"
                )
            for i, e in enumerate(mix):
                e_fields = r.child(f"mix[{i}]", e)
                _endpoint(e_fields, weighted=True)
                e_fields.done()
        if not re.fullmatch(r"[A-Za-z0-9-]*", str(r.get("tenantHeader", str, ""))):
            r.fail("tenantHeader", "is not a header name")
        r.done()
    f.done()
    return Simulation(name, urls, props, request)


def _step(top: _Fields, where: str, step: Any, classes: list[str]) -> Step:
    if step == "deleteCreated":
        return DeleteCreated()
    if not isinstance(step, dict) or len(step) != 1:
        top.fail(where, "a step is deleteCreated, {calibrate: {...}} or {verdict: {...}}")
    ((kind, args),) = step.items()
    f = top.child(f"{where}.{kind}", args)
    cls = f.get("class", str)
    if cls not in classes:
        f.fail("class", f"'{cls}' is not one of this definition's classes {classes}")
    if kind == "calibrate":
        run = _relative(f, "run", f.get("run", str))
        f.done()
        return Calibrate(cls, run)
    if kind == "verdict":
        fields = f.get("fields", list)
        for i, x in enumerate(fields):
            ok = x in VERDICT_FIELDS if isinstance(x, str) else isinstance(x, dict) and len(x) == 1
            if not ok:
                f.fail(
                    f"fields[{i}]",
                    f"{x!r} is neither {{name: constant}} nor one of {', '.join(VERDICT_FIELDS)}",
                )
        if "violations" not in fields:
            f.fail("fields", "must include violations (what the verdict is about)")
        f.done()
        return Verdict(cls, tuple(fields))
    top.fail(where, f"unknown step '{kind}' (deleteCreated, calibrate, verdict)")
    raise AssertionError


# ---------------------------------------------------------------------------- the catalogue


def definitions_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "defs"


def catalogue(directory: Path | None = None) -> dict[str, Definition]:
    """Every definition in the directory, by name (a broken one raises DefinitionError)."""
    directory = directory or definitions_dir()
    return {p.stem: load(p) for p in sorted(directory.glob("*.yaml"))}
