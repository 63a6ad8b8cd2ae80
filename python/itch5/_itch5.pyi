"""Type stubs of the extension itch5._itch5 (python/src/module.cpp)."""

from typing import Any, Optional

def table_names() -> list[str]: ...
def schema(table: str, timezone: str = "", midnight_utc_ns: int = 0) -> Any:
    """The Arrow schema of a table, as an 'arrow_schema' PyCapsule."""

class Run:
    """One pass of the engine over a file, making the tables asked for."""

    def __init__(
        self,
        path: str,
        tables: list[str],
        symbols: list[str],
        start: int,
        end: int,
        book: str = "array",
        batch_rows: int = 65536,
        queue_batches: int = 4,
        timezone: str = "",
        midnight_utc_ns: int = 0,
        stats: bool = False,
    ) -> None: ...
    def next(self) -> Optional[tuple[str, Any, Any]]:
        """The next batch as (table, schema capsule, array capsule), or None at the end."""
    def end(self) -> dict[str, Any]:
        """How the run ended (after next() returned None)."""
    def cancel(self) -> None: ...
    def stream(self) -> Any:
        """The run's only table as an 'arrow_array_stream' PyCapsule."""
