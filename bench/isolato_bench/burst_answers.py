"""The answers of a burst of POST /api/v1/tenants, judged against the REST API's contract (pure).

A POST may be answered 503 or 429 with Retry-After (docs/api.md: the API server did not answer in
3.5 s, or too many checks at once); a client then retries. A create whose first attempt timed out
in the controller may still have been stored, so its retry is answered 200 (the same spec): that
tenant counts as created, and nothing is lost or doubled."""

from dataclasses import dataclass

RETRYABLE = (429, 503)


@dataclass(frozen=True)
class Attempt:
    status: int
    retry_after: str | None = None
    title: str = ""

    def retryable(self) -> bool:
        return self.status in RETRYABLE and self.retry_after is not None


@dataclass(frozen=True)
class Tally:
    created: int  # first POSTs of distinct tenants answered 201 (or 200 after a retried attempt)
    again: int  # repeated POSTs answered 200
    other: int  # anything else: a wrong final answer, or a non-retryable answer before it
    retried: int  # attempts answered 503/429 with Retry-After and retried
    others: tuple[str, ...]  # what the "other" answers were, for the error message

    def exact(self, n: int, duplicates: int) -> bool:
        return (self.created, self.again, self.other) == (n, duplicates, 0)


def tally(first: list[list[Attempt]], repeated: list[list[Attempt]]) -> Tally:
    """first: the attempts of each distinct tenant's first POST; repeated: of each repeated POST
    (sent after all first POSTs were answered). Each list ends with the attempt that was kept."""
    created = again = retried = 0
    others = []
    for attempts, expected in [(a, (201,)) for a in first] + [(a, (200,)) for a in repeated]:
        *before, final = attempts
        retried += len(before)
        ok = all(a.retryable() for a in before) and (
            final.status in expected or (expected == (201,) and before and final.status == 200)
        )
        if not ok:
            others.append(" → ".join(f"{a.status} {a.title}".strip() for a in attempts))
        elif expected == (201,):
            created += 1
        else:
            again += 1
    return Tally(created, again, len(others), retried, tuple(others))
