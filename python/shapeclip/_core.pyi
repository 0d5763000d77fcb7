"""Typed stub of the native engine. Users import `shapeclip`, never this module."""

from typing import Final, final

__all__ = [
    "DEBUG_BUILD",
    "SHAPES",
    "Compressor",
    "ContentHash",
    "EngineError",
    "InputPiece",
    "PanicException",
    "Report",
    "__version__",
]

__version__: Final[str]
DEBUG_BUILD: Final[bool]
#: Every name `Report.shape` may take.
SHAPES: Final[tuple[str, ...]]

class EngineError(Exception): ...
class PanicException(BaseException): ...

@final
class Report:
    @property
    def text(self) -> str: ...
    @property
    def shape(self) -> str: ...
    @property
    def input_chars(self) -> int: ...
    @property
    def input_lines(self) -> int: ...
    @property
    def omitted_chars(self) -> int: ...
    @property
    def omitted_lines(self) -> int: ...
    @property
    def omitted_ranges(self) -> list[tuple[int, int]]: ...
    @property
    def digest_at(self) -> int | None: ...
    @property
    def digest_input(self) -> str | None: ...
    @property
    def digest_room(self) -> int | None: ...

@final
class Compressor:
    def __new__(
        cls, *, budget: int, kind: str, tool: str | None, head_weight: int, tail_weight: int, digest_room: int = 0
    ) -> Compressor: ...
    def feed(self, chunk: str | bytes | InputPiece) -> bool:
        """Whether `chunk` held a lone surrogate, read as U+FFFD."""
    def finish(self, way_back: tuple[str, str] | str | None = None) -> Report:
        """`way_back`: a stored copy's (ID, path), or the path of the file the output is."""

@final
class ContentHash:
    """BLAKE3, for the store's IDs."""

    def __new__(cls) -> ContentHash: ...
    def update(self, data: bytes | InputPiece, /) -> None: ...
    def hexdigest(self) -> str: ...

@final
class InputPiece:
    """Up to `CAPACITY` bytes of input in page-aligned memory, filled by reads straight into
    it and read where it lies: by `Compressor.feed`, `ContentHash.update` and `write_at`.
    Built on Unix only."""

    CAPACITY: Final[int]
    def __new__(cls) -> InputPiece: ...
    def read_from(self, fd: int, /) -> int:
        """Reads once after the bytes held: how many came, 0 at the input's end or when full."""
    def write_at(self, fd: int, offset: int, start: int, /) -> int:
        """Writes the bytes from `start` on at `offset`, once: how many were written."""
    def __len__(self) -> int: ...
    def __bytes__(self) -> bytes: ...
