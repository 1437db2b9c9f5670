"""The errors pbem reports to its users.

Each error class's docstring is its message when raised without arguments; the CLI
turns a PbemError into one line and the exit code the class names (docs/design.md "Exit codes").
"""

from __future__ import annotations


class PbemError(Exception):
    """pbem could not do that"""

    exit_code = 1

    def __init__(self, message: str | None = None, *, details: list[str] | None = None) -> None:
        self.message = message or (self.__doc__ or "").strip()
        self.details = list(details or [])
        super().__init__(self.message)

    def lines(self) -> list[str]:
        return [self.message, *self.details]


class UsageError(PbemError):
    """bad usage"""

    exit_code = 2


class Rejected(PbemError):
    """rejected"""

    exit_code = 1


class InputFileError(Rejected):
    """the input file is not valid"""


class DataError(PbemError):
    """the game data is not valid"""

    exit_code = 1


class KeyFileError(Rejected):
    """the key file could not be used"""


class SignatureError(Rejected):
    """the signature does not verify"""


class CryptoError(Rejected):
    """the sealed value could not be opened"""


class CampaignError(PbemError):
    """the campaign folder is not usable"""


class Busy(PbemError):
    """the campaign is busy: another pbem is working on it"""

    exit_code = 4


class AuditFailed(PbemError):
    """the audit found a problem"""

    exit_code = 3
